import type { ProviderErrorInfo } from "../errors/provider-error.js";

/** What the retry strategy is told about a failed model call. */
export interface RetryContext {
  error: ProviderErrorInfo;
  /** How many attempts have been made for this request so far (1 after the first failure). */
  attempt: number;
  /** How many of those failures happened after some output had streamed. */
  partialFailures: number;
}

/** Retry after `delayMs`, or give up with a message for the user. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; message?: string };

/** Decides, per failed model call, whether and when to try again. */
export interface RetryStrategy {
  /** The most attempts it will ever allow (reported in `retry` events). */
  readonly maxAttempts: number;
  decide(ctx: RetryContext): RetryDecision;
}

/** Tuning of the default strategy; every field has the seed's default. */
export interface DefaultRetryOptions {
  /** Total attempts, the first included. Default 8. */
  maxAttempts?: number;
  /** First backoff; doubles per attempt. Default 2000 ms. */
  baseDelayMs?: number;
  /** Random extra of up to this fraction of the backoff. Default 0.2. */
  jitter?: number;
  /** The longest provider retry-after honoured; a longer one fails at once. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Retries of a stream that failed after partial output. Default 2. */
  partialStreamRetries?: number;
  /** Which error kinds are retried. Default rate_limit, overloaded, server, network, timeout. */
  retryOn?: readonly ProviderErrorInfo["kind"][];
  /** Source of randomness for the jitter, in [0, 1). Default Math.random. */
  random?: () => number;
}

const TRANSIENT: readonly ProviderErrorInfo["kind"][] = ["rate_limit", "overloaded", "server", "network", "timeout"];

/**
 * The default strategy (seeds 001 and 003): transient errors are retried with backoff
 * 2 s × 2^(n−1) plus up to 20 % jitter, a provider's retry-after is honoured up to 60 s
 * (longer fails at once, saying so), at most 8 attempts, and a stream that broke after
 * partial output is retried at most 2 times.
 * Contract: pure apart from `random`; never retries auth, invalid_request, context_overflow or aborted.
 */
export function defaultRetryStrategy(options: DefaultRetryOptions = {}): RetryStrategy {
  const maxAttempts = options.maxAttempts ?? 8;
  const base = options.baseDelayMs ?? 2000;
  const jitter = options.jitter ?? 0.2;
  const cap = options.maxRetryAfterMs ?? 60_000;
  const partialRetries = options.partialStreamRetries ?? 2;
  const retryOn = new Set(options.retryOn ?? TRANSIENT);
  const random = options.random ?? Math.random;
  return {
    maxAttempts,
    decide({ error, attempt, partialFailures }): RetryDecision {
      if (!retryOn.has(error.kind)) return { retry: false };
      if (attempt >= maxAttempts) {
        return { retry: false, message: `gave up after ${attempt} attempts: ${error.message}` };
      }
      if (error.partialOutput && partialFailures > partialRetries) {
        return {
          retry: false,
          message: `stream failed after partial output ${partialFailures} times: ${error.message}`,
        };
      }
      if (error.retryAfterMs !== undefined) {
        if (error.retryAfterMs > cap) {
          return {
            retry: false,
            message: `provider asked to retry after ${Math.ceil(error.retryAfterMs / 1000)} s, more than the ${Math.round(cap / 1000)} s cap: ${error.message}`,
          };
        }
        return { retry: true, delayMs: Math.max(0, error.retryAfterMs) };
      }
      const backoff = base * 2 ** (attempt - 1);
      return { retry: true, delayMs: Math.round(backoff + backoff * jitter * random()) };
    },
  };
}

/** A strategy that never retries (useful in tests and for one-shot calls). */
export const noRetry: RetryStrategy = { maxAttempts: 1, decide: () => ({ retry: false }) };
