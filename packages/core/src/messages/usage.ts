/** Token counts and their cost in US dollars for one or more model calls. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: UsageCost;
}

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

/** A zeroed usage record. Contract: returns a fresh object each call. */
export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** Adds `extra` into `into` in place (used to roll child runs' usage into a parent's). */
export function addUsage(into: Usage, extra: Usage): Usage {
  into.input += extra.input;
  into.output += extra.output;
  into.cacheRead += extra.cacheRead;
  into.cacheWrite += extra.cacheWrite;
  into.totalTokens += extra.totalTokens;
  into.cost.input += extra.cost.input;
  into.cost.output += extra.cost.output;
  into.cost.cacheRead += extra.cost.cacheRead;
  into.cost.cacheWrite += extra.cost.cacheWrite;
  into.cost.total += extra.cost.total;
  return into;
}
