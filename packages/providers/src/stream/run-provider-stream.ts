import { AssistantMessageEventStream, type Model, type StreamOptions } from "@chorus/core";
import { type ClassifyContext, classifyProviderError } from "../errors/classify-error.js";
import { AssistantWriter } from "./assistant-writer.js";

/** Time limits shared by every provider. */
export interface StreamLimits {
  /** Abort a call that has not finished after this long. Default: 10 minutes. */
  timeoutMs?: number;
  /** Abort a call that sent nothing for this long (a stalled stream). Default: 2 minutes. */
  idleTimeoutMs?: number;
}

/** What a provider's body gets: the writer, the combined signal and a heartbeat for stall detection. */
export interface ProviderRun {
  writer: AssistantWriter;
  /** Aborts on the caller's signal, the total timeout or the idle timeout. */
  signal: AbortSignal;
  /** Call on every wire event: resets the idle timer. */
  alive(): void;
}

/** What a provider body returns when the stream ended normally. */
export type ProviderOutcome =
  | { ok: true; reason: "stop" | "length" | "toolUse" }
  /** The API answered normally but the answer is a failure (e.g. a refusal, a cut stream). */
  | { ok: false; message: string; kind: "invalid_request" | "server" | "network" | "unknown" };

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/**
 * Runs one provider call and turns whatever happens into the core's event stream.
 * Contract: returns synchronously and never throws; the stream always ends with exactly one
 * `done` or `error` event; errors are classified; timers and listeners are released at the end.
 */
export function runProviderStream(
  model: Model,
  options: StreamOptions | undefined,
  limits: StreamLimits,
  authHint: string,
  body: (run: ProviderRun) => Promise<ProviderOutcome>,
): AssistantMessageEventStream {
  const stream = new AssistantMessageEventStream();
  const writer = new AssistantWriter(stream, model);
  const controller = new AbortController();
  const callerSignal = options?.signal;
  const timeoutMs = options?.timeoutMs ?? limits.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const idleMs = limits.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  let timeoutMessage: string | undefined;
  const fire = (message: string) => {
    if (controller.signal.aborted) return;
    timeoutMessage = message;
    controller.abort(new Error(message));
  };
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const total = setTimeout(() => fire(`Request timed out after ${timeoutMs} ms`), timeoutMs);
  let idle: ReturnType<typeof setTimeout> | undefined;
  const alive = () => {
    // Called on every wire event: push the one timer back rather than make a new one each time.
    if (idle !== undefined) idle.refresh();
    else idle = setTimeout(() => fire(`Stream stalled: no data for ${idleMs} ms`), idleMs);
  };

  const finish = () => {
    clearTimeout(total);
    if (idle !== undefined) clearTimeout(idle);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  };

  const fail = (ctx: Omit<ClassifyContext, "partialOutput">, error: unknown) => {
    const info = classifyProviderError(error, { ...ctx, partialOutput: writer.hasOutput });
    const message = writer.message;
    message.stopReason = info.kind === "aborted" ? "aborted" : "error";
    message.errorMessage = info.message;
    message.error = info;
    stream.push({ type: "error", reason: message.stopReason, error: message });
  };

  (async () => {
    writer.start();
    if (controller.signal.aborted) throw controller.signal.reason ?? new Error("aborted");
    alive();
    return body({ writer, signal: controller.signal, alive });
  })()
    .then((outcome) => {
      if (outcome.ok) {
        // A complete answer stands even if an abort or timeout fired just after it.
        writer.message.stopReason = outcome.reason;
        stream.push({ type: "done", reason: outcome.reason, message: writer.message });
      } else if (timeoutMessage || callerSignal?.aborted) {
        // The SDKs end a stream quietly when its signal aborts: say why it ended.
        fail({ authHint, signal: callerSignal, timeoutMessage }, new Error("aborted"));
      } else {
        const message = writer.message;
        message.stopReason = "error";
        message.errorMessage = outcome.message;
        message.error = {
          kind: outcome.kind,
          message: outcome.message,
          ...(writer.hasOutput ? { partialOutput: true } : {}),
        };
        stream.push({ type: "error", reason: "error", error: message });
      }
    })
    .catch((error: unknown) => fail({ authHint, signal: callerSignal, timeoutMessage }, error))
    .finally(finish);
  return stream;
}
