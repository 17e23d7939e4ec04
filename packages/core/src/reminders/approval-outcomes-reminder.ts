import type { ReminderSource } from "./reminder-types.js";

/**
 * "approval_outcome": what the user answered to each approval asked since the last model call.
 * Contract: one reminder per answered approval, nothing when none was answered.
 */
export function approvalOutcomesReminder(): ReminderSource {
  return ({ approvals }) =>
    approvals.map((outcome) => ({
      kind: "approval_outcome",
      text: outcome.approved
        ? `The user approved the ${outcome.toolCall.name} call ${outcome.toolCall.id}.`
        : `The user denied the ${outcome.toolCall.name} call ${outcome.toolCall.id}${outcome.reason ? `: ${outcome.reason}` : "."} Do not retry it without asking.`,
    }));
}
