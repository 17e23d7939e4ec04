import type { ProviderErrorInfo, ProviderErrorKind } from "../errors/provider-error.js";
import type { ToolCall } from "../messages/content.js";
import type { AssistantMessage } from "../messages/message-types.js";
import { emptyUsage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { AssistantMessageEvent, AssistantMessageEventStream } from "../stream/assistant-message-event.js";
import { EventStream } from "../stream/event-stream.js";
import type { StreamContext, StreamFn, StreamOptions } from "../stream/stream-fn.js";
import type { AgentEvent } from "./agent-events.js";

/** Default silence, in ms, after which a stream counts as stalled (seed 004: 30 s). */
export const DEFAULT_STALL_TIMEOUT_MS = 30_000;

/** How one model call ended. `started` says whether `message_start` was emitted for it. */
export type AttemptOutcome =
  | { kind: "done"; message: AssistantMessage; started: boolean }
  | { kind: "aborted"; message: AssistantMessage; started: boolean }
  | { kind: "failed"; message: AssistantMessage; error: ProviderErrorInfo; started: boolean; stalled: boolean };

/** What one model call needs. */
export interface AttemptInput {
  streamFn: StreamFn;
  model: Model;
  context: StreamContext;
  /** Passed to the StreamFn as is; its `signal` must be `request.signal`. */
  options: StreamOptions;
  runSignal: AbortSignal;
  /** The run's request controller: its signal goes to the StreamFn; a stall aborts it (then the caller replaces it). */
  request: AbortController;
  watchAbort: (hook: () => void) => () => void;
  stallTimeoutMs: number;
  emit: (event: AgentEvent) => void;
  /** Called at each `toolcall_end` while the model still streams (streaming tool execution). */
  onToolCallEnd: ((call: ToolCall) => void) | undefined;
}

/**
 * Makes one model call and streams it into events, guarding against a StreamFn that throws,
 * returns a broken stream, or goes silent (one stall timer per call, re-armed by timestamp).
 * Contract: never rejects; never waits past an abort or a stall.
 */
export async function streamAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { model, emit, runSignal, stallTimeoutMs } = input;
  const request = input.request;
  let stream: AssistantMessageEventStream;
  try {
    stream = input.streamFn(model, input.context, input.options);
    if (!stream || typeof stream[Symbol.asyncIterator] !== "function") throw new Error("it returned no event stream");
  } catch (error) {
    return failure(model, undefined, false, "unknown", `StreamFn failed: ${messageOf(error)}`, false);
  }

  let partial: AssistantMessage | undefined;
  let final: AssistantMessage | undefined;
  let started = false;
  let stalled = false;
  let aborted = false;
  let broken: unknown;
  let last = 0;
  let wake: (() => void) | undefined;
  const canEnd = typeof (stream as { end?: unknown }).end === "function";
  const interrupt = (): void => {
    if (canEnd) stream.end();
    wake?.();
  };
  const onAbort = (): void => {
    aborted = true;
    interrupt();
  };
  const stallable = stallTimeoutMs > 0 && Number.isFinite(stallTimeoutMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = (): void => {
    const idle = Date.now() - last;
    if (idle < stallTimeoutMs) {
      timer = setTimeout(check, stallTimeoutMs - idle);
      return;
    }
    stalled = true;
    request.abort(new Error(`stream stalled for ${stallTimeoutMs} ms`));
    interrupt();
  };
  // The stall timer is armed only when a read would have to wait (nothing queued), and then
  // re-armed by timestamp, so a stream that is already complete costs no timer at all.
  const buffered =
    typeof (stream as { queued?: unknown }).queued === "number"
      ? (stream as { queued: number; ended: boolean })
      : undefined;
  // Queued events of our own EventStream are read synchronously (no promise per event), unless
  // its iterator was replaced, in which case the iterator is the truth.
  const direct =
    stream instanceof EventStream && stream[Symbol.asyncIterator] === EventStream.prototype[Symbol.asyncIterator]
      ? stream
      : undefined;
  // A stream without `end()` cannot be woken from outside: race each read against a wake-up.
  const woken = canEnd
    ? undefined
    : new Promise<IteratorResult<AssistantMessageEvent>>((resolve) => {
        wake = () => resolve({ value: undefined, done: true });
      });
  const unwatch = input.watchAbort(onAbort);

  try {
    const iterator = stream[Symbol.asyncIterator]();
    for (;;) {
      let event = direct?.shift();
      if (event === undefined) {
        if (stallable && timer === undefined && !(buffered && (buffered.queued > 0 || buffered.ended))) {
          last = Date.now();
          timer = setTimeout(check, stallTimeoutMs);
        }
        const next = woken ? await Promise.race([iterator.next(), woken]) : await iterator.next();
        if (stalled || aborted || next.done) break;
        event = next.value;
      } else if (stalled || aborted) break;
      if (timer !== undefined) last = Date.now();
      if (event.type === "done") {
        final = event.message;
        break;
      }
      if (event.type === "error") {
        final = event.error;
        break;
      }
      partial = event.partial;
      if (!started) {
        started = true;
        emit({ type: "message_start", message: partial });
        if (event.type === "start") continue;
      }
      if (event.type === "start") continue;
      emit({ type: "message_update", message: partial, assistantMessageEvent: event });
      if (event.type === "toolcall_end" && input.onToolCallEnd) input.onToolCallEnd(event.toolCall);
    }
  } catch (error) {
    broken = error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    unwatch();
  }

  if (aborted || (final?.stopReason === "aborted" && runSignal.aborted)) {
    const base = final ?? partial;
    const reason = runSignal.reason;
    const text = typeof reason === "string" ? `Aborted: ${reason}` : "Aborted by the user";
    const message: AssistantMessage = base
      ? { ...base, stopReason: "aborted", errorMessage: base.errorMessage ?? text }
      : blankMessage(model, "aborted", text);
    if (!message.error) message.error = { kind: "aborted", message: message.errorMessage ?? text };
    return { kind: "aborted", message, started };
  }
  if (stalled) {
    return failure(model, partial, started, "timeout", `No stream event for ${stallTimeoutMs} ms (stalled)`, true);
  }
  if (broken !== undefined) {
    return failure(model, partial, started, "network", `The stream broke: ${messageOf(broken)}`, false);
  }
  if (!final) return failure(model, partial, started, "network", "The stream ended without a final event", false);
  if (final.stopReason === "error" || final.stopReason === "aborted") {
    const error: ProviderErrorInfo = final.error
      ? { ...final.error }
      : {
          kind: final.stopReason === "aborted" ? "aborted" : "unknown",
          message: final.errorMessage ?? "model call failed",
        };
    if (error.partialOutput === undefined && final.content.length > 0) error.partialOutput = true;
    return { kind: "failed", message: final, error, started, stalled: false };
  }
  return { kind: "done", message: final, started };
}

function failure(
  model: Model,
  partial: AssistantMessage | undefined,
  started: boolean,
  kind: ProviderErrorKind,
  text: string,
  stalled: boolean,
): AttemptOutcome {
  const error: ProviderErrorInfo = { kind, message: text };
  if (partial && partial.content.length > 0) error.partialOutput = true;
  const message: AssistantMessage = partial
    ? { ...partial, stopReason: "error", errorMessage: text, error }
    : { ...blankMessage(model, "error", text), error };
  return { kind: "failed", message, error, started, stalled };
}

function blankMessage(model: Model, stopReason: "error" | "aborted", text: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason,
    errorMessage: text,
    timestamp: Date.now(),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
