import type { ProviderErrorInfo } from "../errors/provider-error.js";
import type { AssistantMessage } from "../messages/message-types.js";
import { emptyUsage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import { type AssistantMessageEvent, AssistantMessageEventStream } from "../stream/assistant-message-event.js";
import type { StreamContext, StreamFn, StreamOptions } from "../stream/stream-fn.js";
import type { RecordedCall, Script, ScriptedFault, ScriptedReply, ScriptedTurn } from "./script-types.js";
import { scriptedUsage } from "./scripted-usage.js";
import { contentSteps, type Step } from "./turn-steps.js";

/** A StreamFn that plays a script, with the calls it received. */
export interface ScriptedStreamFn extends StreamFn {
  /** Every call so far, in order. */
  readonly calls: RecordedCall[];
}

/**
 * A deterministic StreamFn for tests: each call plays the next turn of `script` (or the turn
 * the script function returns). Contract: without delays every event is queued before the
 * call returns (no timers); delays use setTimeout, so fake timers drive them; an abort signal
 * ends the stream with an "aborted" error event (unless a `hang` fault ignores it). A call past
 * the end of a list script ends with an `invalid_request` error naming the exhaustion.
 */
export function scriptedStreamFn(script: Script): ScriptedStreamFn {
  const calls: RecordedCall[] = [];
  let toolCallSeq = 0;
  const nextId = (): string => `call_${++toolCallSeq}`;

  const fn = (model: Model, context: StreamContext, options?: StreamOptions): AssistantMessageEventStream => {
    const index = calls.length;
    calls.push({ model, context: { ...context, messages: [...context.messages] }, options });
    const turn: ScriptedTurn =
      typeof script === "function"
        ? script(context, index)
        : (script[index] ?? {
            fault: "error",
            error: {
              kind: "invalid_request",
              message: `scriptedStreamFn: script exhausted after ${script.length} turns`,
            },
          });
    if (typeof turn === "object" && "fault" in turn && turn.fault === "throw") {
      throw new Error(turn.message ?? "scriptedStreamFn: thrown fault");
    }
    const stream = new AssistantMessageEventStream();
    const partial: AssistantMessage = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: Date.now(),
    };
    play(stream, partial, turnSteps(turn, model, partial, nextId), options?.signal, ignoresSignal(turn));
    return stream;
  };
  return Object.assign(fn, { calls });
}

function ignoresSignal(turn: ScriptedTurn): boolean {
  return typeof turn === "object" && "fault" in turn && turn.fault === "hang" && turn.ignoreSignal === true;
}

/** A sentinel step: stop here and never end (hang). */
const HANG = -1;
/** A sentinel step: the stream breaks. */
const BREAK_END = -2;
const BREAK_REJECT = -3;

function* turnSteps(
  turn: ScriptedTurn,
  model: Model,
  partial: AssistantMessage,
  nextId: () => string,
): Generator<Step, void, undefined> {
  yield () => ({ type: "start", partial });
  if (typeof turn === "string") {
    yield* replySteps({ text: turn }, model, partial, nextId);
    return;
  }
  if (!("fault" in turn)) {
    yield* replySteps(turn, model, partial, nextId);
    return;
  }
  const fault: ScriptedFault = turn;
  switch (fault.fault) {
    case "throw":
      return;
    case "stall":
      yield fault.ms;
      if (fault.resume) yield* replySteps(fault.resume, model, partial, nextId);
      else yield HANG;
      return;
    case "hang":
      if (fault.partial) yield* contentSteps(fault.partial, partial, nextId);
      yield HANG;
      return;
    case "broken":
      if (fault.partial) yield* contentSteps(fault.partial, partial, nextId);
      yield fault.mode === "reject" ? BREAK_REJECT : BREAK_END;
      return;
    case "error": {
      if (fault.partial) yield* contentSteps(fault.partial, partial, nextId);
      const info: ProviderErrorInfo = { ...fault.error };
      if (partial.content.length > 0) info.partialOutput = true;
      yield () => {
        partial.stopReason = info.kind === "aborted" ? "aborted" : "error";
        partial.errorMessage = info.message;
        partial.error = info;
        return { type: "error", reason: partial.stopReason, error: partial };
      };
      return;
    }
  }
}

function* replySteps(
  reply: ScriptedReply,
  model: Model,
  partial: AssistantMessage,
  nextId: () => string,
): Generator<Step, void, undefined> {
  yield* contentSteps(reply, partial, nextId);
  yield () => {
    const hasCalls = partial.content.some((c) => c.type === "toolCall");
    partial.stopReason = reply.stopReason ?? (hasCalls ? "toolUse" : "stop");
    partial.usage = scriptedUsage(model, reply.usage);
    if (reply.responseId !== undefined) partial.responseId = reply.responseId;
    return { type: "done", reason: partial.stopReason as "stop" | "length" | "toolUse", message: partial };
  };
}

/** Drives the steps: synchronously until a wait, then from a timer; honours the abort signal. */
function play(
  stream: AssistantMessageEventStream,
  partial: AssistantMessage,
  steps: Generator<Step, void, undefined>,
  signal: AbortSignal | undefined,
  ignoreSignal: boolean,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let listening = false;
  const onAbort = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    finishAborted();
  };
  const cleanup = (): void => {
    if (listening) signal?.removeEventListener("abort", onAbort);
    listening = false;
  };
  const finishAborted = (): void => {
    cleanup();
    if (stream.ended) return;
    partial.stopReason = "aborted";
    partial.errorMessage = "Request was aborted";
    partial.error = { kind: "aborted", message: "Request was aborted" };
    stream.push({ type: "error", reason: "aborted", error: partial });
  };
  const run = (): void => {
    timer = undefined;
    for (;;) {
      if (!ignoreSignal && signal?.aborted) {
        finishAborted();
        return;
      }
      const next = steps.next();
      if (next.done) {
        cleanup();
        return;
      }
      const step = next.value;
      if (typeof step === "function") {
        const event: AssistantMessageEvent = step();
        stream.push(event);
        continue;
      }
      if (step === HANG) {
        if (!ignoreSignal) listen();
        return;
      }
      if (step === BREAK_END) {
        cleanup();
        stream.end();
        return;
      }
      if (step === BREAK_REJECT) {
        cleanup();
        breakIterator(stream);
        return;
      }
      if (!ignoreSignal) listen();
      timer = setTimeout(run, step);
      return;
    }
  };
  const listen = (): void => {
    if (listening || !signal) return;
    listening = true;
    signal.addEventListener("abort", onAbort, { once: true });
  };
  run();
}

/** Makes the stream's iterator reject once the queued events are drained (a broken transport). */
function breakIterator(stream: AssistantMessageEventStream): void {
  const original = stream[Symbol.asyncIterator].bind(stream);
  const broken = (): AsyncIterator<AssistantMessageEvent> => {
    const inner = original();
    return {
      next: () => {
        const pending = inner.next();
        return Promise.race([pending, Promise.resolve(undefined)]).then((r) =>
          r && !r.done ? r : Promise.reject(new Error("scriptedStreamFn: broken stream")),
        );
      },
    };
  };
  Object.defineProperty(stream, Symbol.asyncIterator, { value: broken });
}
