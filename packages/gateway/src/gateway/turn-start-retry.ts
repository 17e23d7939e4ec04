import { isTransientStoreError } from "@chorus/store";

/** How often a turn that could not start because the store did not answer is started again, and how far apart. */
export interface TurnStartRetryOptions {
  /** Retries after the first try. Default 8. */
  readonly attempts: number;
  /** The first pause; it doubles up to 5 s. Default 250 ms (all 8: ≈ 23 s). */
  readonly baseDelayMs: number;
}

export const DEFAULT_TURN_START_RETRY: TurnStartRetryOptions = { attempts: 8, baseDelayMs: 250 };

const MAX_DELAY_MS = 5000;

/**
 * The pause before a turn that failed to start is started again, or undefined to give up. Only a store that did not
 * answer (a database blip) is waited out: its messages are stored and unanswered, and answering the chat's next message
 * first would pass over them for good. Contract: `failures` counts this session's failed starts in a row, from 1.
 */
export function turnStartRetryDelay(
  error: unknown,
  failures: number,
  options: TurnStartRetryOptions = DEFAULT_TURN_START_RETRY,
): number | undefined {
  if (!isTransientStoreError(error) || failures > options.attempts) return undefined;
  return Math.min(options.baseDelayMs * 2 ** (failures - 1), MAX_DELAY_MS);
}
