import { type AnyAgentTool, defineTool } from "@chorus/core";
import { lowerTier } from "@chorus/gateway";
import type { TrustTier } from "@chorus/store";
import { z } from "zod";
import type { PlanModeSessions } from "./plan-mode-sessions.js";

export const PROPOSE_PLAN_TOOL = "propose_plan";
/** The tool's answer to the model when the plan was approved (it tells the model plan mode is off). */
export const PLAN_APPROVED_RESULT = "The user approved the plan. Plan mode is off: carry the plan out now.";
/** The tool's answer when the run stopped before the user answered (the plan stays stored and still waits). */
export const PLAN_STOPPED_RESULT =
  "Stopped before the user answered the plan. It still waits for their answer; a new message will bring it.";
const WAIT_FOR_ANSWER_MS = 60 * 60 * 1000;

/**
 * `propose_plan`: shows the plan in the chat (approve/reject buttons where the platform has them) and waits for the
 * user. Approved: plan mode ends and the model is told to carry it out; rejected: plan mode stays and the model gets
 * the user's feedback; the run stopped (a restart, `/stop`), the plan still waits and a later answer starts a new turn.
 * Contract: never throws; the wait ends after an hour (the tool's timeout), the plan still stored as waiting.
 */
export function proposePlanTool(sessions: PlanModeSessions): AnyAgentTool {
  return defineTool({
    name: PROPOSE_PLAN_TOOL,
    description:
      "In plan mode: propose your plan (Markdown steps) to the user and wait for approval before changing anything.",
    parameters: z.object({ plan: z.string().min(1).describe("the plan, as Markdown steps") }),
    category: "info",
    timeoutMs: WAIT_FOR_ANSWER_MS,
    execute: async ({ plan }, ctx) => {
      const sessionKey = ctx.run.sessionId;
      if (sessionKey === undefined) {
        return { content: [{ type: "text", text: "No session to show the plan in." }], isError: true };
      }
      const meta = ctx.run.meta;
      const starterIds = Array.isArray(meta?.starterIds) ? (meta.starterIds as string[]) : [];
      const decision = await sessions.propose(sessionKey, plan, ctx.signal, starterIds);
      // The answer's words enter the run: it drops to the answerer's tier first (the run's tier never rises).
      if (meta !== undefined && decision.trust !== undefined && typeof meta.trustTier === "string") {
        meta.trustTier = lowerTier(meta.trustTier as TrustTier, decision.trust);
      }
      const text = decision.approved
        ? PLAN_APPROVED_RESULT
        : "stopped" in decision
          ? PLAN_STOPPED_RESULT
          : `The user rejected the plan${decision.feedback ? `: ${decision.feedback}` : " without saying why"}. You are still in plan mode: revise the plan (ask if unclear) and propose it again.`;
      return { content: [{ type: "text", text }] };
    },
  });
}
