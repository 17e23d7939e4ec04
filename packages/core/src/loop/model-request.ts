import type { ProviderErrorInfo } from "../errors/provider-error.js";
import type { ToolExecutor } from "../executor/tool-executor.js";
import { runHooks } from "../hooks/run-hooks.js";
import type { AssistantMessage } from "../messages/message-types.js";
import { addUsage } from "../messages/usage.js";
import { abortableSleep } from "../retry/abortable-sleep.js";
import type { StreamContext, StreamOptions } from "../stream/stream-fn.js";
import type { ChatCall } from "../telemetry/run-telemetry.js";
import { acquireRequestController } from "./request-signals.js";
import type { RunState } from "./run-state.js";
import { type AttemptOutcome, DEFAULT_STALL_TIMEOUT_MS, streamAttempt } from "./stream-attempt.js";

/** The assistant message of a turn and the executor that may already run its tool calls. */
export interface TurnResponse {
  kind: "done" | "aborted" | "error";
  message: AssistantMessage;
  /** Whether `message_start` was emitted for `message`. */
  started: boolean;
  executor: ToolExecutor | undefined;
}

/** What a request needs from the loop. */
export interface RequestHooks {
  /** Builds the request context (after compaction); undefined means the run must end (the error is set). */
  buildContext: () => Promise<StreamContext | undefined>;
  /** Summarises the transcript after a context_overflow; false when that was not possible. */
  forceCompaction: () => Promise<boolean>;
  /** A fresh executor for an attempt, when tools start while streaming. */
  newExecutor: (() => ToolExecutor) | undefined;
}

/** One model call under way: the executor its tool calls start on, its telemetry, and how it ends. */
interface Attempt {
  executor: ToolExecutor | undefined;
  chat: ChatCall | undefined;
  outcome: AttemptOutcome | Promise<AttemptOutcome>;
}

/**
 * Gets one assistant message, with retries (the RetryStrategy decides; `retry` events; abort cuts
 * the wait), stall recovery, model fallback and one compaction-and-retry after a context_overflow.
 * Contract: never rejects for a model failure; a final failure is a message with stopReason "error";
 * synchronous when nothing has to be waited for (no pre_prompt hook, no API key to fetch, a model
 * call that succeeded at once).
 */
export function requestAssistant(
  state: RunState,
  context: StreamContext,
  hooks: RequestHooks,
): TurnResponse | Promise<TurnResponse> {
  const { config } = state;
  if (config.hooks?.pre_prompt || config.getApiKey) return requestWithRetries(state, context, hooks, undefined);
  const first = startAttempt(state, context, hooks, 1, undefined);
  const outcome = first.outcome;
  if (outcome instanceof Promise || outcome.kind === "failed") return requestWithRetries(state, context, hooks, first);
  return succeeded(state, first, outcome);
}

async function requestWithRetries(
  state: RunState,
  context: StreamContext,
  hooks: RequestHooks,
  first: Attempt | undefined,
): Promise<TurnResponse> {
  const { config, emit, signal } = state;
  const stallTimeoutMs = config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const fallbackOn = config.fallbackOn ?? ["overloaded"];
  let attempt = 0;
  let partialFailures = 0;
  let overflowHandled = false;
  let request = context;
  let ready = first;
  if (ready === undefined && config.hooks?.pre_prompt) {
    const event = { event: "pre_prompt" as const, runId: state.run.runId, sessionId: state.run.sessionId };
    await runHooks(
      config.hooks,
      { ...event, turn: state.turn, messageCount: request.messages.length },
      signal,
      config.logger,
    );
  }
  for (;;) {
    attempt++;
    let made = ready;
    ready = undefined;
    if (made === undefined) {
      const apiKey = config.getApiKey ? await config.getApiKey(state.model.provider) : undefined;
      made = startAttempt(state, request, hooks, attempt, apiKey);
    }
    const { executor } = made;
    const outcome = made.outcome instanceof Promise ? await made.outcome : made.outcome;
    if (outcome.kind !== "failed") return succeeded(state, made, outcome);
    addUsage(state.usage, outcome.message.usage);
    if (made.chat !== undefined) state.telemetry?.endChat(made.chat, outcome.message, errorTypeOf(outcome));

    const discarded = outcome.started ? outcome.message : undefined;
    const finalFailure = (text?: string): TurnResponse => {
      const message = text === undefined ? outcome.message : { ...outcome.message, errorMessage: text };
      return { kind: "error", message, started: outcome.started, executor };
    };
    const error = outcome.error;
    if (outcome.stalled) {
      state.request = undefined;
      emit({ type: "stall", timeoutMs: stallTimeoutMs, attempt });
      const recovery = config.stallRecovery ?? "retry";
      if (recovery === "abort") return finalFailure();
      if (recovery === "fallback" && switchModel(state, "the stream stalled", discarded)) {
        executor?.discard();
        attempt = 0;
        partialFailures = 0;
        continue;
      }
    }
    if (error.kind === "context_overflow" && !overflowHandled) {
      overflowHandled = true;
      executor?.discard();
      if (!(await hooks.forceCompaction())) return finalFailure();
      const rebuilt = await hooks.buildContext();
      if (!rebuilt) return finalFailure();
      request = rebuilt;
      emitRetry(state, attempt, 0, error, discarded);
      attempt--;
      continue;
    }
    const canFallBack = fallbackOn.includes(error.kind) && hasFallback(state);
    if (canFallBack && config.fallbackImmediately) {
      executor?.discard();
      switchModel(state, reasonText(error), discarded);
      attempt = 0;
      partialFailures = 0;
      continue;
    }
    if (error.partialOutput) partialFailures++;
    const decision = state.retry.decide({ error, attempt, partialFailures });
    if (decision.retry) {
      executor?.discard();
      emitRetry(state, attempt, decision.delayMs, error, discarded);
      if (decision.delayMs > 0 && !(await abortableSleep(decision.delayMs, signal))) {
        const message: AssistantMessage = {
          ...outcome.message,
          content: [],
          stopReason: "aborted",
          errorMessage: "Aborted while waiting to retry",
          error: { kind: "aborted", message: "Aborted while waiting to retry" },
        };
        return { kind: "aborted", message, started: false, executor: undefined };
      }
      continue;
    }
    if (canFallBack) {
      executor?.discard();
      switchModel(state, reasonText(error), discarded);
      attempt = 0;
      partialFailures = 0;
      continue;
    }
    return finalFailure(decision.message);
  }
}

/** Starts one model call: its executor (streaming tool execution), request signal, options and chat span. */
function startAttempt(
  state: RunState,
  request: StreamContext,
  hooks: RequestHooks,
  attempt: number,
  apiKey: string | undefined,
): Attempt {
  const { config } = state;
  const executor = hooks.newExecutor?.();
  state.request ??= acquireRequestController();
  // `{ signal }` when there are no stream options: a spread of nothing yields an object whose V8 map a full GC
  // drops between runs (see keepShape).
  const signal = state.request.signal;
  const options: StreamOptions = config.streamOptions === undefined ? { signal } : { ...config.streamOptions, signal };
  if (apiKey !== undefined) options.apiKey = apiKey;
  if (options.sessionId === undefined && state.run.sessionId !== undefined) options.sessionId = state.run.sessionId;
  const chat = state.telemetry?.startChat(state.model, request, options, attempt);
  const outcome = streamAttempt({
    streamFn: config.streamFn,
    model: state.model,
    context: request,
    options,
    runSignal: state.signal,
    request: state.request,
    watchAbort: state.abortHooks.watch,
    stallTimeoutMs: config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    emit: state.emit,
    onToolCallEnd: executor
      ? (call) => {
          if (!executor.has(call.id)) executor.add(call);
        }
      : undefined,
  });
  return { executor, chat, outcome };
}

/** Books a call that produced its message (complete or aborted) and hands it to the turn. */
function succeeded(
  state: RunState,
  made: Attempt,
  outcome: AttemptOutcome & { kind: "done" | "aborted" },
): TurnResponse {
  addUsage(state.usage, outcome.message.usage);
  if (made.chat !== undefined) state.telemetry?.endChat(made.chat, outcome.message, errorTypeOf(outcome));
  return { kind: outcome.kind, message: outcome.message, started: outcome.started, executor: made.executor };
}

function errorTypeOf(outcome: AttemptOutcome): string | undefined {
  if (outcome.kind === "failed") return outcome.error.kind;
  return outcome.kind === "aborted" ? "aborted" : undefined;
}

function emitRetry(
  state: RunState,
  attempt: number,
  delayMs: number,
  error: ProviderErrorInfo,
  discarded: AssistantMessage | undefined,
): void {
  const event = {
    type: "retry" as const,
    attempt,
    maxAttempts: state.retry.maxAttempts,
    delayMs,
    error,
  };
  state.emit(discarded ? { ...event, discarded } : event);
}

function hasFallback(state: RunState): boolean {
  return state.fallbackIndex < (state.config.fallbackModels?.length ?? 0);
}

/** Moves to the next fallback model; false when there is none. */
function switchModel(state: RunState, reason: string, discarded: AssistantMessage | undefined): boolean {
  const next = state.config.fallbackModels?.[state.fallbackIndex];
  if (!next) return false;
  state.fallbackIndex++;
  const from = state.model;
  state.model = next;
  const event = { type: "model_fallback" as const, from, to: next, reason };
  state.emit(discarded ? { ...event, discarded } : event);
  return true;
}

function reasonText(error: ProviderErrorInfo): string {
  return `${error.kind}: ${error.message}`;
}
