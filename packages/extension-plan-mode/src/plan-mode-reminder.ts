import { type AgentMessage, isSystemReminder, type ReminderSource } from "@chorus/core";
import type { PlanModeSessions } from "./plan-mode-sessions.js";
import { PLAN_APPROVED_RESULT, PROPOSE_PLAN_TOOL } from "./propose-plan-tool.js";

/** Seed 004's TURNS_BETWEEN_ATTACHMENTS and FULL_REMINDER_EVERY_N_ATTACHMENTS for the plan-mode reminder. */
export const PLAN_MODE_REMINDER_CADENCE = { turnsBetween: 5, fullEvery: 5 } as const;

export const PLAN_MODE_FULL_REMINDER = [
  "Plan mode is on: the user wants to approve a plan before anything changes. Until a plan is approved:",
  "- Look around with information (read-only) tools only; any other tool call is refused.",
  "- Change nothing: no edits, no commands that change anything, no actions on the user's behalf.",
  `- When you know enough, call ${PROPOSE_PLAN_TOOL} with your plan as Markdown steps. If the user rejects it, revise it from their feedback and propose it again.`,
  "- Ask the user when something essential is unclear.",
].join("\n");

export const PLAN_MODE_SPARSE_REMINDER = `Plan mode is still on (full instructions earlier): read-only tools only; propose your plan with ${PROPOSE_PLAN_TOOL}.`;

export const PLAN_MODE_EXIT_REMINDER = "Plan mode is off: all your tools are available again.";

/**
 * The plan-mode reminders of one session (seed 004 `plan_mode` / `plan_mode_exit`), from its transcript: while the
 * session is in plan mode, one before the first model call, then again once `turnsBetween` prompts of the user came
 * after the last one; the 1st, 6th, 11th … of a plan-mode stretch are full, the others sparse. Once plan mode is left
 * by `/plan off`, one `plan_mode_exit` (an approved plan's tool answer already says so). A compaction that summarised
 * them away starts over with a full one.
 * Contract: reads only this session's state (`sessionKey` is fixed); a session never in plan mode gets nothing.
 */
export function planModeReminder(sessions: PlanModeSessions, sessionKey: string): ReminderSource {
  return ({ messages }) => {
    const history = planModeHistory(messages);
    if (!sessions.isActive(sessionKey)) {
      return history.last === "plan_mode" ? [{ kind: "plan_mode_exit", text: PLAN_MODE_EXIT_REMINDER }] : [];
    }
    if (history.last === "plan_mode" && history.promptsSince < PLAN_MODE_REMINDER_CADENCE.turnsBetween) return [];
    const nth = history.sinceExit + 1;
    const full = nth % PLAN_MODE_REMINDER_CADENCE.fullEvery === 1;
    return [{ kind: "plan_mode", text: full ? PLAN_MODE_FULL_REMINDER : PLAN_MODE_SPARSE_REMINDER }];
  };
}

interface PlanModeHistory {
  /** The kind of the newest plan-mode reminder in the transcript. */
  last: "plan_mode" | "plan_mode_exit" | undefined;
  /** The user's prompts after it. */
  promptsSince: number;
  /** `plan_mode` reminders since the newest `plan_mode_exit` (or the start). */
  sinceExit: number;
}

function planModeHistory(messages: readonly AgentMessage[]): PlanModeHistory {
  const history: PlanModeHistory = { last: undefined, promptsSince: 0, sinceExit: 0 };
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as AgentMessage;
    if (isSystemReminder(message)) {
      const kinds = message.reminderKinds ?? [];
      if (kinds.includes("plan_mode_exit")) {
        history.last ??= "plan_mode_exit";
        return history;
      }
      if (kinds.includes("plan_mode")) {
        history.last ??= "plan_mode";
        history.sinceExit++;
      }
    } else if (isApproval(message)) {
      // An approved plan ended plan mode, and the tool's answer said so: it counts as the exit reminder.
      history.last ??= "plan_mode_exit";
      return history;
    } else if (message.role === "user" && history.last === undefined) {
      history.promptsSince++;
    }
  }
  return history;
}

function isApproval(message: AgentMessage): boolean {
  if (message.role !== "toolResult" || message.toolName !== PROPOSE_PLAN_TOOL) return false;
  return message.content.some((part) => part.type === "text" && part.text === PLAN_APPROVED_RESULT);
}
