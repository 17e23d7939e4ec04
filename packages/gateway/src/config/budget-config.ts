import { z } from "zod";

function tokens(what: string) {
  return z
    .int(`${what} must be a whole number of tokens`)
    .min(0, `${what} must be 0 or more: a negative budget cannot be spent`)
    .optional();
}

function dollars(what: string) {
  return z
    .number(`${what} must be a number of US dollars`)
    .min(0, `${what} must be 0 or more: a negative budget cannot be spent`)
    .optional();
}

/**
 * An agent's spending limits (issue #19 requirement 5). Each is optional: a limit left out is no limit. Tokens count
 * input + output (cache reads and writes included) as the provider reports them; cost is in US dollars from the
 * model registry's prices. A day is a UTC day.
 */
export const budgetConfigSchema = z.strictObject({
  /** Tokens the agent may use per UTC day, over all its sessions. */
  dailyTokens: tokens("budgets.dailyTokens"),
  /** US dollars the agent may spend per UTC day, over all its sessions. */
  dailyCostUsd: dollars("budgets.dailyCostUsd"),
  /** Tokens one goal may use (counted from when it was set). */
  goalTokens: tokens("budgets.goalTokens"),
  /** US dollars one goal may spend (counted from when it was set). */
  goalCostUsd: dollars("budgets.goalCostUsd"),
  /** Tokens one schedule may use over all its runs. */
  scheduleTokens: tokens("budgets.scheduleTokens"),
  /** US dollars one schedule may spend over all its runs. */
  scheduleCostUsd: dollars("budgets.scheduleCostUsd"),
});

/** An agent's spending limits. */
export type BudgetConfig = z.output<typeof budgetConfigSchema>;
