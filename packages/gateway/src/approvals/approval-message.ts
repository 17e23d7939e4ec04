import type { OutboundButton } from "@chorus/channel";
import { formatAge } from "../formatting/format-age-and-cost.js";

/** What the chat is asked about. */
export interface ApprovalQuestion {
  readonly code: string;
  readonly toolName: string;
  readonly args: unknown;
  readonly reason: string;
  readonly timeoutMs: number;
}

const MAX_ARGS_LENGTH = 300;

/**
 * The Markdown asking a chat to approve a tool call: what the agent wants to run, with which arguments, and why;
 * how to answer (buttons when the channel has them, else `/approve <code>` and `/deny <code>`), who may, and until when.
 */
export function approvalRequestText(question: ApprovalQuestion, withButtons: boolean): string {
  const how = withButtons
    ? "Use the buttons below"
    : `Answer \`/approve ${question.code}\` or \`/deny ${question.code}\``;
  return [
    ...whatIsAsked(question),
    `${how} (the person who asked or an admin) within ${formatAge(question.timeoutMs)}; otherwise it is denied.`,
  ].join("\n");
}

/**
 * The buttons of an approval request. A press comes back as an inbound message whose text is the button's id,
 * so `/approve <code>` typed and tapped take the same path.
 */
export function approvalButtons(code: string): OutboundButton[] {
  return [
    { id: `/approve ${code}`, label: "Approve" },
    { id: `/deny ${code}`, label: "Deny" },
  ];
}

/** How a request ended, as its message shows it once the buttons are gone. */
export type ApprovalSettlement =
  | { readonly kind: "approved" | "denied"; readonly by: string }
  | { readonly kind: "timed-out" }
  | { readonly kind: "withdrawn" }
  | { readonly kind: "restarted" };

/**
 * The request's message once it is settled: what was asked, then how it ended instead of how to answer — so nobody
 * presses a button or types a code that no longer counts.
 */
export function approvalSettledText(question: ApprovalQuestion, settlement: ApprovalSettlement): string {
  return [...whatIsAsked(question), settlementLine(question, settlement)].join("\n");
}

/** How a request ended, in one line. */
function settlementLine(question: ApprovalQuestion, settlement: ApprovalSettlement): string {
  switch (settlement.kind) {
    case "approved":
      return `**Approved** by ${settlement.by}.`;
    case "denied":
      return `**Denied** by ${settlement.by}.`;
    case "timed-out":
      return `**Denied**: nobody answered within ${formatAge(question.timeoutMs)}.`;
    case "withdrawn":
      return "**Withdrawn**: the run stopped before anyone answered.";
    case "restarted":
      return "**Withdrawn**: the bot restarted before anyone answered.";
  }
}

/** The notice for a request nobody answered in time. */
export function approvalTimedOutText(question: ApprovalQuestion): string {
  return `Nobody answered the request to run \`${question.toolName}\` (\`${question.code}\`) within ${formatAge(question.timeoutMs)}, so it was denied.`;
}

/** The lines saying what the agent wants to run and why. */
function whatIsAsked(question: ApprovalQuestion): string[] {
  return [
    `**Approval needed**: the agent wants to run \`${question.toolName}\` with \`${summariseArgs(question.args)}\`.`,
    `Why: ${question.reason}`,
  ];
}

/** Arguments on one line for a code span: no backticks, at most MAX_ARGS_LENGTH characters. */
function summariseArgs(args: unknown): string {
  const json = (JSON.stringify(args) ?? "{}").replaceAll("`", "'").replaceAll("\n", " ");
  return json.length > MAX_ARGS_LENGTH ? `${json.slice(0, MAX_ARGS_LENGTH)}…` : json;
}
