/** Anything that can answer `get(name)` for HTTP headers (fetch Headers, a plain map wrapper). */
export interface HeaderLookup {
  get(name: string): string | null | undefined;
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` first, then `retry-after`
 * (seconds or an HTTP date). Contract: undefined when absent or unparseable; never negative.
 */
export function retryAfterMs(headers: HeaderLookup | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers.get("retry-after");
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds) && /^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(after);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}
