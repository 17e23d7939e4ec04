import type { AgentMessage } from "../messages/message-types.js";
import type { ReminderSource } from "./reminder-types.js";
import { isSystemReminder } from "./system-reminder-message.js";

/**
 * "time_passed": when the newest user prompt came more than `afterMs` after the message before
 * it, says how long the pause was (once per prompt). Contract: derived from the transcript's timestamps only.
 */
export function timePassedReminder(options: { afterMs?: number } = {}): ReminderSource {
  const afterMs = options.afterMs ?? 30 * 60_000;
  let remindedFor: number | undefined;
  return ({ messages }) => {
    const index = findLastIndex(messages, (m) => m.role === "user" && !isSystemReminder(m));
    if (index <= 0) return [];
    const prompt = messages[index] as { timestamp: number };
    const before = messages[index - 1] as { timestamp?: number };
    if (remindedFor === prompt.timestamp || before.timestamp === undefined) return [];
    const gap = prompt.timestamp - before.timestamp;
    if (gap <= afterMs) return [];
    remindedFor = prompt.timestamp;
    return [
      {
        kind: "time_passed",
        text: `${describeGap(gap)} passed since the previous message. Facts about the workspace may have changed.`,
      },
    ];
  };
}

function describeGap(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

function findLastIndex(messages: readonly AgentMessage[], test: (m: AgentMessage) => boolean): number {
  for (let i = messages.length - 1; i >= 0; i--) if (test(messages[i] as AgentMessage)) return i;
  return -1;
}
