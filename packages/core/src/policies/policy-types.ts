import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../messages/message-types.js";
import type { Model } from "../model/model.js";
import type { StreamContext } from "../stream/stream-fn.js";
import type { AnyAgentTool, ToolRunInfo } from "../tools/tool-types.js";

/** What every policy sees. `messages` is the live transcript: read it, do not mutate it. */
export interface PolicyContext {
  messages: readonly AgentMessage[];
  /** The turn about to run (pre-turn) or just finished (post-turn), 1-based. */
  turn: number;
  model: Model;
  run: ToolRunInfo;
  signal: AbortSignal;
}

/**
 * Before a model call, on the request converted for the model: go on, stop the run, or add messages to the
 * transcript and end the run (seed 000: Stop and Inject both end the turn; the messages reach the next run).
 */
export type PreTurnDecision =
  | { kind: "continue" }
  | { kind: "stop"; reason?: string }
  | { kind: "inject"; messages: AgentMessage[] };

/** Before a tool call runs: allow, deny (the model gets the reason), rewrite its arguments, or ask a human. */
export type PreDispatchDecision =
  | { kind: "allow" }
  | { kind: "deny"; reason: string }
  | { kind: "rewrite"; args: Record<string, unknown> }
  | { kind: "ask"; reason: string; timeoutMs?: number };

/** After a turn (assistant message + tool results): go on, stop, or add messages. */
export type PostTurnDecision =
  | { kind: "continue" }
  | { kind: "stop"; reason?: string }
  | { kind: "inject"; messages: AgentMessage[] };

/** When the run would end: stop, or continue with more messages. */
export type PostLoopDecision = { kind: "stop" } | { kind: "continue"; messages: AgentMessage[] };

type MaybePromise<T> = T | Promise<T>;

/** What a pre-turn policy sees: the transcript and the request about to be sent (after transforms and `convertToLlm`). */
export interface PreTurnContext extends PolicyContext {
  readonly request: StreamContext;
}

/** Runs before every model call. `undefined` means continue. */
export type PreTurnPolicy = (ctx: PreTurnContext) => MaybePromise<PreTurnDecision | undefined>;

/** Runs before every tool call with its validated arguments. `undefined` means allow. */
export type PreDispatchPolicy = (
  ctx: PolicyContext & { toolCall: ToolCall; tool: AnyAgentTool; args: unknown },
) => MaybePromise<PreDispatchDecision | undefined>;

/** Runs after every turn. `undefined` means continue. */
export type PostTurnPolicy = (
  ctx: PolicyContext & { message: AssistantMessage; toolResults: ToolResultMessage[] },
) => MaybePromise<PostTurnDecision | undefined>;

/** Runs when the run would end. `undefined` means stop. */
export type PostLoopPolicy = (ctx: PolicyContext) => MaybePromise<PostLoopDecision | undefined>;

/** A human's answer to an `ask` decision. */
export type ApprovalDecision = { approved: true } | { approved: false; reason?: string };

/** What the loop hands the app when a pre-dispatch policy asks for approval. */
export interface ApprovalRequest {
  approvalId: string;
  toolCall: ToolCall;
  reason: string;
  timeoutMs: number;
  signal: AbortSignal;
}
