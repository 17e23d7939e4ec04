// The gateway's vocabulary of model calls: their kinds (as budgets book them), the output cap, a budget's refusal.
export { BUDGET_EXHAUSTED, isBudgetRefusal } from "./budget-refusal.js";
export { CALL_PURPOSES, type CallPurpose, callPurposeOf, sessionCallsOf } from "./call-purpose.js";
export { agentOfSessionKey, cappedStreamFn } from "./output-cap.js";
