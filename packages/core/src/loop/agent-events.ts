import type { SpanContext } from "@opentelemetry/api";
import type { ProviderErrorInfo } from "../errors/provider-error.js";
import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../messages/message-types.js";
import type { Usage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { AssistantMessageEvent } from "../stream/assistant-message-event.js";
import type { ToolOutput } from "../tools/tool-types.js";

/**
 * Why a run ended, as seen in `agent_end`:
 * - completed: the model stopped and no follow-up arrived
 * - max_turns: `maxTurns` was reached
 * - policy: a pre-/post-turn or post-loop policy stopped the run
 * - length: the output limit kept cutting the model off past `maxOutputRecoveries`
 * - aborted: `abort()` / the signal
 * - error: a model call failed for good, the context could not fit, or a hook threw
 */
export type AgentEndReason = "completed" | "max_turns" | "policy" | "length" | "aborted" | "error";

/** Everything a run reports, in order. Contract: every run starts with `agent_start` and ends with one `agent_end`. */
export type AgentEvent =
  | {
      type: "agent_start";
      runId: string;
      /** The run's `invoke_agent` span, when an OpenTelemetry SDK records it (to store with the run, or link to). */
      spanContext?: SpanContext;
    }
  | {
      type: "agent_end";
      /** The messages this run added, in transcript order. */
      messages: AgentMessage[];
      reason: AgentEndReason;
      /** Human-readable cause when reason is not "completed". */
      error?: string;
      /** Usage and cost of every model call of the run (retries, summaries and added child runs included). */
      usage: Usage;
    }
  | { type: "turn_start"; turn: number }
  | {
      type: "turn_end";
      turn: number;
      /** The turn's assistant message; absent when the turn ended before the model was called (policy, ceiling). */
      message?: AssistantMessage;
      toolResults: ToolResultMessage[];
    }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: ToolOutput }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: ToolResultMessage;
      isError: boolean;
    }
  | {
      type: "retry";
      /** The attempt that failed (1-based). */
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      error: ProviderErrorInfo;
      /** The partial assistant message that was discarded, if the failed attempt had started one. */
      discarded?: AssistantMessage;
    }
  | { type: "stall"; timeoutMs: number; attempt: number }
  | { type: "model_fallback"; from: Model; to: Model; reason: string; discarded?: AssistantMessage }
  | { type: "compaction_start"; kind: "summary"; tokensBefore: number }
  | { type: "compaction_failed"; kind: "summary"; error: string }
  | {
      /** Tier 1 (seed 004's SessionMemoryCompactApplied): the kept summary replaced the messages it covers. */
      type: "session_memory_compact";
      /** Tokens of the replaced messages minus the summary's. */
      savedTokens: number;
      summaryTokens: number;
    }
  | {
      type: "compaction";
      /**
       * micro: old tool results cleared; tool_pairs: the soft tier's summaries applied; summary: a summarising one;
       * focus: closed focus segments replaced by their knowledge (re-derived from the focus state before each call).
       */
      kind: "micro" | "tool_pairs" | "summary" | "focus";
      /** Of a summary: 1 when the kept session-memory summary served it (no model call), 2 when it was summarised. */
      tier?: 1 | 2;
      tokensBefore: number;
      tokensAfter: number;
      /** The whole transcript after compaction (replace your copy with it). */
      messages: AgentMessage[];
    }
  | {
      /** Once per approach: the estimate passed window − reserve − warningOffset; re-armed once back under it. */
      type: "context_warning";
      /** The request's estimated tokens (transcript, system prompt and tool definitions). */
      tokens: number;
      window: number;
      /** Where the summarising compaction starts (window − reserve). */
      compactAt: number;
    }
  | { type: "approval_required"; approvalId: string; toolCall: ToolCall; reason: string; timeoutMs: number };

/** The event names, for exhaustive handling. */
export type AgentEventType = AgentEvent["type"];
