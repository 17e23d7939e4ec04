import { approvalOutcomesReminder, type ReminderSource, type RemindersConfig, timePassedReminder } from "@chorus/core";
import { z } from "zod";

/** An agent's system reminders (seed 004), before each model call. Off by default, but `changedFiles` (see README). */
export const reminderConfigSchema = z.strictObject({
  /** Name the files the session read whose content changed since the last model call ("changed_files"). Default true. */
  changedFiles: z.boolean().default(true),
  /** Tell the model how long the pause before a prompt was, when it is longer than this many minutes. */
  timePassedMinutes: z.int().positive().optional(),
  /** Tell the model what the user answered to each approval (approved / denied and why). */
  approvalOutcomes: z.boolean().default(false),
  /** All reminders together get this long before the model call goes without them. Default 1000 ms. */
  timeoutMs: z.int().min(10).max(10_000).optional(),
});

export type ReminderConfig = z.output<typeof reminderConfigSchema>;

/**
 * The core reminder settings of an agent's configured reminders.
 * Contract: undefined when none is on, so the loop skips the pipeline entirely.
 */
export function remindersFromConfig(config: ReminderConfig | undefined): RemindersConfig | undefined {
  if (config === undefined) return undefined;
  const sources: ReminderSource[] = [];
  if (config.timePassedMinutes !== undefined) {
    sources.push(timePassedReminder({ afterMs: config.timePassedMinutes * 60_000 }));
  }
  if (config.approvalOutcomes) sources.push(approvalOutcomesReminder());
  if (sources.length === 0) return undefined;
  return config.timeoutMs === undefined ? { sources } : { sources, timeoutMs: config.timeoutMs };
}
