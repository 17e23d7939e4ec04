import type { PreDispatchPolicy } from "@chorus/core";
import type { PlanModeSessions } from "./plan-mode-sessions.js";
import { PROPOSE_PLAN_TOOL } from "./propose-plan-tool.js";

/**
 * In plan mode only information (read-only) tools and propose_plan run; outside it propose_plan does not.
 * Contract: denies with a reason the model can act on; allows everything else (undefined).
 */
export function planModeGate(sessions: PlanModeSessions): PreDispatchPolicy {
  return ({ tool, run }) => {
    const active = run.sessionId !== undefined && sessions.isActive(run.sessionId);
    if (tool.name === PROPOSE_PLAN_TOOL) {
      return active ? undefined : { kind: "deny", reason: "Not in plan mode: there is no plan to propose." };
    }
    if (active && tool.category !== "info") {
      return {
        kind: "deny",
        reason: `Plan mode: only information (read-only) tools may run. Propose your plan with ${PROPOSE_PLAN_TOOL} first.`,
      };
    }
    return undefined;
  };
}
