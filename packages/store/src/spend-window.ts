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

/** The UTC day of a time, e.g. "2026-11-25": budgets and /usage count per UTC day. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
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
