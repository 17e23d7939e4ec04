import type { Reminder, SystemReminderMessage } from "./reminder-types.js";

/** Wraps reminder text in the `<system-reminder>` tags of seed 004. */
export function wrapSystemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

/**
 * The entry the reminders of one model call become (seed 004 "Attachment to API Message Conversion").
 * Contract: the same reminders give the same content bytes.
 */
export function systemReminderMessage(reminders: readonly Reminder[], timestamp: number): SystemReminderMessage {
  return {
    role: "user",
    content: reminders.map((reminder) => ({ type: "text", text: wrapSystemReminder(reminder.text) })),
    timestamp,
    isMeta: true,
    reminderKinds: reminders.map((reminder) => reminder.kind),
  };
}

/** Whether a transcript entry is a system reminder entry rather than the person's words. */
export function isSystemReminder(message: unknown): message is SystemReminderMessage {
  const m = message as { role?: unknown; isMeta?: unknown };
  return m.role === "user" && m.isMeta === true;
}
