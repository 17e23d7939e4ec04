import type { Model, Usage, UsageCost } from "@chorus/core";

/**
 * The cost in US dollars of `usage` at `model`'s prices (per million tokens).
 * Contract: pure; returns a fresh UsageCost whose `total` is the sum of its parts.
 */
export function calculateCost(model: Pick<Model, "cost">, usage: Omit<Usage, "cost" | "totalTokens">): UsageCost {
  const price = model.cost;
  const cost = {
    input: (usage.input * price.input) / 1e6,
    output: (usage.output * price.output) / 1e6,
    cacheRead: (usage.cacheRead * price.cacheRead) / 1e6,
    cacheWrite: (usage.cacheWrite * price.cacheWrite) / 1e6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return cost;
}

/**
 * Builds a full Usage from token counts.
 * Contract: missing cache counts are 0; `totalTokens` sums all four counts; cost as calculateCost.
 */
export function usageWithCost(
  model: Pick<Model, "cost">,
  tokens: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
): Usage {
  const counts = {
    input: tokens.input,
    output: tokens.output,
    cacheRead: tokens.cacheRead ?? 0,
    cacheWrite: tokens.cacheWrite ?? 0,
  };
  return {
    ...counts,
    totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite,
    cost: calculateCost(model, counts),
  };
}
