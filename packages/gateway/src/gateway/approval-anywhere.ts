import type { ApprovalAnswerBy, ApprovalAnswerOutcome } from "../approvals/approval-desk.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * `/approve` and `/deny` (or their buttons): answered here when a run of this process asked under `code`, else (a
 * cluster) by the instance whose run asked, so the tool call waiting there goes on. Contract: never rejects; `unknown`
 * when no instance holds the code (its run ended, or its instance died with it).
 */
export async function answerApprovalAnywhere(
  ctx: GatewayContext,
  code: string,
  approve: boolean,
  by: ApprovalAnswerBy,
): Promise<ApprovalAnswerOutcome> {
  const here = ctx.approvals.answer(code, approve, by);
  if (here.kind !== "unknown" || ctx.cluster === undefined) return here;
  const answer = await ctx.cluster.ask({ op: "approval", code, approve, by });
  return answer === undefined ? here : (answer.result as ApprovalAnswerOutcome);
}
