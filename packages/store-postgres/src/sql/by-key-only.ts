/**
 * `condition` in a form the planner cannot match against a partial index's predicate. Why: a statement that finds its
 * row by primary key (`WHERE id = $1 AND status = 'running'`) must use that key; with a generic plan and few rows in
 * a partial index of that status (`runs_running`, `outbox_unsent`), PostgreSQL picks the partial index instead and
 * reads every entry in it — live ones and the recently dead ones of every row that changed status since — to find
 * the one id: per call, work that grows with the backlog (a fifth of the hot statements' server time in a profile).
 * Contract: true exactly when `condition` is (false when it is NULL).
 */
export function byKeyOnly(condition: string): string {
  return `(CASE WHEN ${condition} THEN true ELSE false END)`;
}
