import type { ProviderErrorInfo } from "../errors/provider-error.js";
import type { Usage, UsageCost } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { StreamContext, StreamOptions } from "../stream/stream-fn.js";

/** A text block of a scripted reply. `chunks` splits it into several `text_delta`s. */
export interface ScriptedText {
  type: "text";
  text: string;
  chunks?: string[];
  /** Wait this long before the block starts. */
  delayMs?: number;
}

/** A thinking block; `signature` is replayed verbatim by real providers. */
export interface ScriptedThinking {
  type: "thinking";
  thinking: string;
  signature?: string;
  redacted?: boolean;
  delayMs?: number;
}

/** A tool call. `id` defaults to `call_<n>`; `incomplete` marks it cut off by the output limit. */
export interface ScriptedToolCall {
  type?: "toolCall";
  name: string;
  args?: Record<string, unknown>;
  id?: string;
  incomplete?: boolean;
  delayMs?: number;
}

/** A block of a reply with an explicit position (see `ScriptedReply.blocks`). */
export type ScriptedBlock = ScriptedText | ScriptedThinking | (ScriptedToolCall & { type: "toolCall" });

/** Token counts of a scripted reply; cost is computed from the model's prices when left out. */
export type ScriptedUsage = Partial<Omit<Usage, "cost">> & { cost?: Partial<UsageCost> };

/**
 * One successful model reply. Blocks play in the order thinking, text, toolCalls unless
 * `blocks` gives an explicit order. `stopReason` defaults to "toolUse" when there are tool
 * calls, else "stop".
 */
export interface ScriptedReply {
  text?: string;
  thinking?: string | { thinking: string; signature?: string; redacted?: boolean };
  toolCalls?: ScriptedToolCall[];
  blocks?: ScriptedBlock[];
  stopReason?: "stop" | "length" | "toolUse";
  usage?: ScriptedUsage;
  responseId?: string;
  /** Wait this long before every delta event (simulates token latency). */
  tokenDelayMs?: number;
  /** Wait this long after the last block before `done`. */
  endDelayMs?: number;
}

/**
 * A failure to simulate:
 * - `throw`: the StreamFn throws synchronously (breaks the StreamFn contract)
 * - `broken`: the stream ends without a final event (`end`) or its iterator rejects (`reject`)
 * - `hang`: the stream never ends; with `ignoreSignal` it does not even react to abort
 * - `error`: a final `error` event carrying `error` (after the optional `partial` output)
 * - `stall`: emits `start`, goes silent for `ms`, then plays `resume` (or hangs if absent)
 */
export type ScriptedFault =
  | { fault: "throw"; message?: string }
  | { fault: "broken"; mode?: "end" | "reject"; partial?: ScriptedReply }
  | { fault: "hang"; ignoreSignal?: boolean; partial?: ScriptedReply }
  | { fault: "error"; error: ProviderErrorInfo; partial?: ScriptedReply }
  | { fault: "stall"; ms: number; resume?: ScriptedReply };

/** One model call: a plain string is a text reply. */
export type ScriptedTurn = string | ScriptedReply | ScriptedFault;

/** What the scripted StreamFn was called with (messages are a shallow copy taken at call time). */
export interface RecordedCall {
  model: Model;
  context: StreamContext;
  options: StreamOptions | undefined;
}

/** A script: turns played in order, or a function choosing the turn from the request. */
export type Script = ScriptedTurn[] | ((context: StreamContext, callIndex: number) => ScriptedTurn);
