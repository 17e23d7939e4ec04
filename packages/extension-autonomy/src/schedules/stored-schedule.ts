import type { ScheduleRecord } from "@chorus/store";
import { LATEST_DATE_MS, type ScheduleData, scheduleDataSchema } from "./schedule-spec.js";

/** A stored schedule as the scheduler can use it, or why it cannot (a corrupt or out-of-range row). */
export type StoredScheduleReading =
  | { readonly ok: true; readonly data: ScheduleData }
  | { readonly ok: false; readonly problem: string };

function isInstant(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0 && value <= LATEST_DATE_MS;
}

/**
 * Reads a stored schedule's data and times. Contract: never throws; a row written by an older version or by hand
 * whose times no `Date` can hold, or whose data does not match the schema, is `ok: false` with the reason.
 */
export function readStoredSchedule(record: ScheduleRecord): StoredScheduleReading {
  if (record.nextRunAt !== undefined && !isInstant(record.nextRunAt)) {
    return { ok: false, problem: `its next run (${record.nextRunAt}) is not a time` };
  }
  if (!isInstant(record.createdAt))
    return { ok: false, problem: `its creation time (${record.createdAt}) is not a time` };
  const parsed = scheduleDataSchema.safeParse(record.data);
  if (!parsed.success) return { ok: false, problem: parsed.error.issues[0]?.message ?? "its data is malformed" };
  return { ok: true, data: parsed.data };
}
