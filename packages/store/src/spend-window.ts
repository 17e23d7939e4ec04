/** Tokens and US dollars, spent or reserved. */
export interface Spend {
  readonly tokens: number;
  readonly cost: number;
}

export const NO_SPEND: Spend = { tokens: 0, cost: 0 };

/** Sum of two spends. */
export function addSpend(a: Spend, b: Spend): Spend {
  return { tokens: a.tokens + b.tokens, cost: a.cost + b.cost };
}

/** `a - b`, never below zero. */
export function subtractSpend(a: Spend, b: Spend): Spend {
  return { tokens: Math.max(0, a.tokens - b.tokens), cost: Math.max(0, a.cost - b.cost) };
}

const DAY_MS = 86_400_000;
// The last day asked for and its bounds: budgets ask for today's name once or twice per model call; a Date plus
// toISOString costs ~0.8 µs per ask, a compare within the same day ~0.01 µs (#33).
let lastDay = "";
let lastDayStart = Number.NaN;

/** The UTC day of a time, e.g. "2026-11-25": budgets and /usage count per UTC day. */
export function utcDay(at: number): string {
  // Date drops a fraction toward zero; so does this. NaN bounds (nothing cached yet) and a NaN `at` fail the test
  // and take the full path (which throws for NaN, as before).
  const ms = Math.trunc(at);
  if (ms >= lastDayStart && ms < lastDayStart + DAY_MS) return lastDay;
  const day = new Date(ms).toISOString().slice(0, 10);
  lastDayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  lastDay = day;
  return day;
}

/** Epoch milliseconds of the start of the UTC day of `at`. */
export function utcDayStart(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** Epoch milliseconds of the start of the UTC month of `at`. */
export function utcMonthStart(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}
