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

/** What has been read of one model call's stream so far. */
interface Reading {
  partial: AssistantMessage | undefined;
  final: AssistantMessage | undefined;
  started: boolean;
  aborted: boolean;
}

/**
 * Makes one model call and streams it into events, guarding against a StreamFn that throws,
 * returns a broken stream, or goes silent (one stall timer per call, re-armed by timestamp).
 * Contract: never rejects; never waits past an abort or a stall; synchronous when the stream
 * already holds everything up to its final event (a zero-latency model).
 */
export function streamAttempt(input: AttemptInput): AttemptOutcome | Promise<AttemptOutcome> {
  const { model } = input;
  let stream: AssistantMessageEventStream;
  try {
    stream = input.streamFn(model, input.context, input.options);
    if (!stream || typeof stream[Symbol.asyncIterator] !== "function") throw new Error("it returned no event stream");
  } catch (error) {
    return failure(model, undefined, false, "unknown", `StreamFn failed: ${messageOf(error)}`, false);
  }
  const read: Reading = { partial: undefined, final: undefined, started: false, aborted: false };
  const direct = directStream(stream);
  if (direct !== undefined) {
    // What is queued is read here, without an async frame, a timer or a promise; the async reader takes over only
    // when the queue runs dry before the final event.
    const unwatch = input.watchAbort(() => {
      read.aborted = true;
      direct.end();
    });
    let broken: unknown;
    try {
      let event = read.aborted ? undefined : direct.shift();
      while (event !== undefined) {
        if (take(read, event, input)) break;
        event = read.aborted ? undefined : direct.shift();
      }
    } catch (error) {
      broken = error;
    }
    unwatch();
    if (read.final !== undefined || read.aborted || broken !== undefined) return settle(input, read, false, broken);
  }
  return readRest(stream, input, read);
}

/**
 * Our own EventStream, whose queued events can be taken synchronously (no promise per event) — unless its
 * iterator was replaced, in which case the iterator is the truth.
 */
function directStream(stream: AssistantMessageEventStream): AssistantMessageEventStream | undefined {
  return stream instanceof EventStream && stream[Symbol.asyncIterator] === EventStream.prototype[Symbol.asyncIterator]
    ? stream
    : undefined;
}

/** Turns one stream event into loop events; true when it is the final one. */
function take(read: Reading, event: AssistantMessageEvent, input: AttemptInput): boolean {
  if (event.type === "done") {
    read.final = event.message;
    return true;
  }
  if (event.type === "error") {
    read.final = event.error;
    return true;
  }
  const partial = event.partial;
  read.partial = partial;
  if (!read.started) {
    read.started = true;
    input.emit({ type: "message_start", message: partial });
    if (event.type === "start") return false;
  }
  if (event.type === "start") return false;
  input.emit({ type: "message_update", message: partial, assistantMessageEvent: event });
  if (event.type === "toolcall_end" && input.onToolCallEnd) input.onToolCallEnd(event.toolCall);
  return false;
}

/** Reads the rest of a stream that has to be waited for, with the stall timer and abort wake-ups. */
async function readRest(
  stream: AssistantMessageEventStream,
  input: AttemptInput,
  read: Reading,
): Promise<AttemptOutcome> {
  const { stallTimeoutMs, request } = input;
  let stalled = false;
  let broken: unknown;
  let last = 0;
  let wake: (() => void) | undefined;
  const canEnd = typeof (stream as { end?: unknown }).end === "function";
  const interrupt = (): void => {
    if (canEnd) stream.end();
    wake?.();
  };
  const onAbort = (): void => {
    read.aborted = true;
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
  const direct = directStream(stream);
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
        if (stalled || read.aborted || next.done) break;
        event = next.value;
      } else if (stalled || read.aborted) break;
      if (timer !== undefined) last = Date.now();
      if (take(read, event, input)) break;
    }
  } catch (error) {
    broken = error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    unwatch();
  }
  return settle(input, read, stalled, broken);
}

/** The outcome of a call once its stream was read as far as it goes. */
function settle(input: AttemptInput, read: Reading, stalled: boolean, broken: unknown): AttemptOutcome {
  const { model, runSignal, stallTimeoutMs } = input;
  const { partial, final, started } = read;
  if (read.aborted || (final?.stopReason === "aborted" && runSignal.aborted)) {
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
