export { BudgetLedger, type BudgetLimit, type Reservation } from "./budget-ledger.js";
export { budgetedStreamFn, type ReserveCall, worstCaseOf } from "./budgeted-stream-fn.js";
export { type UsageView, usageViewOf } from "./usage-view.js";
