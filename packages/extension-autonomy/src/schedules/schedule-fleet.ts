import { describeSpec } from "./schedule-spec.js";
import type { ScheduleEntry } from "./scheduler.js";

/** The Schedules section of /agents (and /schedule list): each schedule's next run and last result. */
export function renderSchedules(entries: readonly ScheduleEntry[]): string[] {
  if (entries.length === 0) return ["**Schedules**", "none (admins create them with /schedule)"];
  return [
    "**Schedules**",
    ...entries.map((entry) => {
      const next = entry.nextRunAt === undefined ? "no next run" : `next ${new Date(entry.nextRunAt).toISOString()}`;
      const last = entry.data.lastResult === undefined ? "not run yet" : `last: ${entry.data.lastResult}`;
      return (
        `- ${entry.id} · ${entry.status} · ${describeSpec(entry.data.spec)} → \`${entry.data.sessionKey}\` · ` +
        `${next} · ${last} · runs ${entry.data.runs} · “${entry.data.prompt}”`
      );
    }),
    "Stop one: /schedule stop <id>.",
  ];
}
