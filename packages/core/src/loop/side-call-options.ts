import type { StreamOptions } from "../stream/stream-fn.js";
import type { RunState } from "./run-state.js";

/**
 * The options of a call the loop makes beside the turn's own (a TACO summary, a compaction summary): the run's
 * session id, its output cap (`streamOptions.maxTokens`) and the call's purpose, so a host's budget reserves and books
 * it against the session like a turn's call. Contract: pure; leaves out what is undefined.
 */
export function sideCallOptions(
  state: Pick<RunState, "run" | "config">,
  purpose: string,
  signal: AbortSignal,
  apiKey: string | undefined,
): StreamOptions {
  const maxTokens = state.config.streamOptions?.maxTokens;
  const sessionId = state.run.sessionId;
  return {
    signal,
    purpose,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}
