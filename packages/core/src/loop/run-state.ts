import type { AgentMessage } from "../messages/message-types.js";
import type { Usage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { PolicyContext } from "../policies/policy-types.js";
import type { ReminderPipeline } from "../reminders/reminder-pipeline.js";
import type { RetryStrategy } from "../retry/retry-strategy.js";
import type { LlmTool } from "../stream/stream-fn.js";
import type { RunTelemetry } from "../telemetry/run-telemetry.js";
import type { AnyAgentTool, ToolCategory, ToolRunInfo } from "../tools/tool-types.js";
import type { AbortHooks } from "./abort-hooks.js";
import type { AgentEvent } from "./agent-events.js";
import type { AgentLoopConfig } from "./loop-config.js";

/** The mutable state of one run, shared by the loop's steps. */
export interface RunState {
  readonly config: AgentLoopConfig;
  readonly emit: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  readonly abortHooks: AbortHooks;
  /** Signal source of model calls; shared by the run's calls, replaced after a stall aborted it. */
  request: AbortController | undefined;
  readonly run: ToolRunInfo;
  readonly systemPrompt: string | undefined;
  /** The working transcript (a copy of the caller's, compacted in place of the original). */
  messages: AgentMessage[];
  /** Messages this run added, in order. */
  readonly added: AgentMessage[];
  /** Messages to add at the start of the next turn (prompts, steering, injections). */
  pending: AgentMessage[];
  /** The model in use; changes on fallback. */
  model: Model;
  fallbackIndex: number;
  readonly usage: Usage;
  readonly retry: RetryStrategy;
  readonly tools: ReadonlyMap<string, AnyAgentTool>;
  readonly llmTools: LlmTool[] | undefined;
  readonly timeouts: Readonly<Record<ToolCategory, number>>;
  turn: number;
  /** The run's system reminders; undefined when they are off. */
  readonly reminders: ReminderPipeline | undefined;
  /** The run's spans and metrics; undefined when no OpenTelemetry SDK records anything. */
  readonly telemetry: RunTelemetry | undefined;
  /** The previous request's estimate (the context warning fires on a crossing); undefined before the first. */
  lastRequestTokens: number | undefined;
}

/** Appends a message to the transcript and the run's additions, with its start/end events. */
export function appendMessage(state: RunState, message: AgentMessage): void {
  state.messages.push(message);
  state.added.push(message);
  state.emit({ type: "message_start", message });
  state.emit({ type: "message_end", message });
}

/** The context every policy sees. */
export function policyContext(state: RunState): PolicyContext {
  return { messages: state.messages, turn: state.turn, model: state.model, run: state.run, signal: state.signal };
}
