/**
 * How a model call a budget refused starts its error message (and so the failed turn's error): a wrapper that refuses
 * a call before making it (e.g. `@chorus/extension-autonomy`'s budgets) ends the stream with this, so a feature knows
 * the turn made no call (and causes none after it, e.g. @chorus/extension-context's subgoal extraction).
 */
export const BUDGET_EXHAUSTED = "Budget exhausted";

/** Whether a run's error is a budget's refusal: its call was never made. */
export function isBudgetRefusal(error: string | undefined): boolean {
  return error?.startsWith(BUDGET_EXHAUSTED) === true;
}
