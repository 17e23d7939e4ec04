import type { Message } from "../messages/message-types.js";
import type { Model } from "../model/model.js";
import type { AssistantMessageEventStream } from "./assistant-message-event.js";

/** A tool as the model sees it: a name, a description and a JSON Schema for its arguments. */
export interface LlmTool {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset) of the arguments object. */
  parameters: Record<string, unknown>;
}

/** What one model call is given. */
export interface StreamContext {
  systemPrompt?: string;
  messages: Message[];
  tools?: LlmTool[];
}

/** Per-call options. Providers ignore what they do not support. */
export interface StreamOptions {
  signal?: AbortSignal;
  apiKey?: string;
  maxTokens?: number;
  temperature?: number;
  /** Reasoning effort for models that think. */
  reasoning?: "minimal" | "low" | "medium" | "high";
  /** Abort the request when it has not finished after this many milliseconds. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** A stable id for the conversation (prompt-cache affinity, provider logs). */
  sessionId?: string;
  /**
   * What the call is for, when it is not a turn's own call: `taco` (a tool output summary), `compaction` (a summary
   * of older messages), or a host's own kinds. Budgets book a call by it; providers ignore it. Absent: a turn's call.
   */
  purpose?: string;
}

/**
 * Calls a model and streams its answer.
 * Contract: never throws and never rejects; every failure (network, HTTP status, abort,
 * bad response) is delivered as a final `error` event whose message has stopReason
 * "error" or "aborted" and a classified `error`.
 */
export type StreamFn = (model: Model, context: StreamContext, options?: StreamOptions) => AssistantMessageEventStream;
