import { compressToolOutput } from "../context/tool-output-compression/compress-tool-output.js";
import { TOOL_OUTPUT_COMPRESSION_DEFAULTS } from "../context/tool-output-compression/compression-config.js";
import type { ToolResultMessage } from "../messages/message-types.js";
import { addUsage } from "../messages/usage.js";
import type { RunState } from "./run-state.js";
import { sideCallOptions } from "./side-call-options.js";
import { DEFAULT_STALL_TIMEOUT_MS, streamAttempt } from "./stream-attempt.js";

/** Compresses one finished result; resolves to the result to append (the raw one on any failure). */
export type OutputCompressor = (
  result: ToolResultMessage,
  approved: boolean,
  signal: AbortSignal,
) => Promise<ToolResultMessage>;

const ignoreEvent = (): void => {};

/**
 * The run's TACO step, or undefined when `toolOutputCompression.enabled` is not true.
 * Contract: the returned function never rejects; the summary call ends with the tool call's signal, the run's abort or
 * the timeout, whichever comes first, and its usage is added to the run's.
 */
export function outputCompressorFor(state: RunState): OutputCompressor | undefined {
  const cfg = state.config.toolOutputCompression;
  if (cfg?.enabled !== true) return undefined;
  const timeoutMs = cfg.timeoutMs ?? TOOL_OUTPUT_COMPRESSION_DEFAULTS.timeoutMs;
  return async (result, approved, signal) => {
    const model = cfg.model ?? state.model;
    const outcome = await compressToolOutput({
      result,
      approved,
      ...(cfg.thresholdTokens === undefined ? {} : { thresholdTokens: cfg.thresholdTokens }),
      ...(cfg.targetTokens === undefined ? {} : { targetTokens: cfg.targetTokens }),
      ...(cfg.compressibleTools === undefined ? {} : { compressibleTools: cfg.compressibleTools }),
      modelId: model.id,
      complete: async (context) => {
        const apiKey = state.config.getApiKey ? await state.config.getApiKey(model.provider) : undefined;
        const request = new AbortController();
        const stop = (): void => request.abort(new Error("tool-output compression stopped"));
        const timer = setTimeout(stop, timeoutMs);
        signal.addEventListener("abort", stop, { once: true });
        try {
          const attempt = await streamAttempt({
            streamFn: cfg.streamFn ?? state.config.streamFn,
            model,
            context,
            options: sideCallOptions(state, "taco", request.signal, apiKey),
            runSignal: request.signal,
            request,
            watchAbort: state.abortHooks.watch,
            stallTimeoutMs: state.config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
            emit: ignoreEvent,
            onToolCallEnd: undefined,
          });
          addUsage(state.usage, attempt.message.usage);
          return attempt.message;
        } finally {
          clearTimeout(timer);
          signal.removeEventListener("abort", stop);
        }
      },
    });
    if (outcome.kind === "compressed") return outcome.result;
    if (outcome.kind === "failed") {
      state.config.logger?.warn(
        { toolName: result.toolName, toolCallId: result.toolCallId, err: outcome.error },
        "tool-output compression failed; the raw output is kept",
      );
    }
    return result;
  };
}
