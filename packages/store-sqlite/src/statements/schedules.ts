import type { ScheduleFilter, ScheduleRecord, ScheduleStatus, StoredRow } from "@chorus/store";
import { scheduleFromRow, statusList, toStoredJson } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";
import { Where } from "./where-clause.js";

const SCHEDULE_STATUSES: readonly ScheduleStatus[] = ["active", "stopped", "done"];

/** Writes `schedule` whole, created or replaced by its id. */
export function putSchedule(sqlite: SqliteContext, schedule: ScheduleRecord): void {
  sqlite
    .sql(
      `INSERT INTO schedules (id, status, next_run_at, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, next_run_at = excluded.next_run_at,
         data = excluded.data, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    )
    .run(
      schedule.id,
      schedule.status,
      schedule.nextRunAt ?? null,
      toStoredJson(schedule.data, "schedule's data"),
      schedule.createdAt,
      schedule.updatedAt,
    );
}

/** The schedule `id`, or undefined. */
export function getSchedule(sqlite: SqliteContext, id: string): ScheduleRecord | undefined {
  // Read as bigints: an older version may have written a time past 2^53 (see `sqlReadingBigInts`).
  const row = sqlite.sqlReadingBigInts("SELECT * FROM schedules WHERE id = ?").get(id);
  return row === undefined ? undefined : scheduleFromRow(row as StoredRow);
}

/** The schedules `filter` picks, oldest first. */
export function listSchedules(sqlite: SqliteContext, filter: ScheduleFilter = {}): ScheduleRecord[] {
  const where = new Where();
  where.oneOf("status", statusList(filter.status), SCHEDULE_STATUSES);
  return sqlite
    .sqlReadingBigInts(`SELECT * FROM schedules${where.clause()} ORDER BY created_at, id`)
    .all(...where.values)
    .map((row) => scheduleFromRow(row as StoredRow));
}

/** Deletes the schedule `id`; false if there was none. */
export function deleteSchedule(sqlite: SqliteContext, id: string): boolean {
  return Number(sqlite.sql("DELETE FROM schedules WHERE id = ?").run(id).changes) > 0;
}
