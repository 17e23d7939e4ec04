import type { z } from "zod";
import type { ImageContent, TextContent } from "../messages/content.js";
import type { Usage } from "../messages/usage.js";
import type { ExecutionContext } from "./execution-context.js";

/** Timeout class of a tool (seed 003): exec 600 s, mcp 120 s, info 30 s, edit 30 s by default. */
export type ToolCategory = "info" | "edit" | "exec" | "mcp";

/** Which run a tool call belongs to. `depth` is 0 for a top-level agent, 1 for its sub-agents, … */
export interface ToolRunInfo {
  runId: string;
  depth: number;
  sessionId?: string;
  /** Open-ended data the app attaches to the run (e.g. who is asking, the channel). */
  meta?: Record<string, unknown>;
}

/** What a tool returns; `details` is for the app (UI, logs) and never reaches the model. */
export interface ToolOutput<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError?: boolean;
}

/** Per-call context handed to `execute`. */
export interface ToolCallContext<TDetails = unknown> {
  /** Aborted on user abort, steering, a failed sibling or the category timeout; `signal.reason` says which. */
  signal: AbortSignal;
  toolCallId: string;
  /** Streams a partial result to subscribers as `tool_execution_update`. */
  onUpdate(partial: ToolOutput<TDetails>): void;
  run: ToolRunInfo;
  /** Adds a child run's usage and cost to this run (sub-agents). */
  addUsage(usage: Usage): void;
  /** The run's working directory and environment, fixed at its start; absent unless `executionContext` is configured. */
  execution?: ExecutionContext;
}

/** A tool: a zod schema for its arguments, a timeout category and how to run it. */
export interface AgentTool<TSchema extends z.ZodType = z.ZodType, TDetails = unknown> {
  name: string;
  description: string;
  parameters: TSchema;
  category: ToolCategory;
  /** May this call run in parallel with other safe calls? Default false (runs alone). */
  concurrencySafe?: boolean | ((args: z.infer<TSchema>) => boolean);
  /** When this tool's call fails, abort the other calls of the same batch (e.g. a shell command). */
  cancelSiblingsOnFailure?: boolean;
  /** Overrides the category timeout for this tool, in milliseconds. */
  timeoutMs?: number;
  execute(args: z.infer<TSchema>, ctx: ToolCallContext<TDetails>): Promise<ToolOutput<TDetails>> | ToolOutput<TDetails>;
}

/** Any tool, whatever its schema (what tool lists hold). */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools holds tools of different argument types
export type AnyAgentTool = AgentTool<any, any>;
