import type { ScheduleFilter, ScheduleRecord, ScheduleStatus } from "@chorus/store";
import { type StoredRow, scheduleFromRow, statusList, toStoredJson } from "@chorus/store";
import type { Db } from "../query-runner.js";
import { WhereClause } from "./where-clause.js";

const SCHEDULE_STATUSES: readonly ScheduleStatus[] = ["active", "stopped", "done"];

/** Writes a schedule, replacing the one with its id. */
export async function putSchedule(db: Db, schedule: ScheduleRecord): Promise<void> {
  const data = toStoredJson(schedule.data, "schedule's data");
  await db.query(
    `INSERT INTO schedules (id, status, next_run_at, data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, next_run_at = excluded.next_run_at,
       data = excluded.data, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    [schedule.id, schedule.status, schedule.nextRunAt ?? null, data, schedule.createdAt, schedule.updatedAt],
  );
}

export async function getSchedule(db: Db, id: string): Promise<ScheduleRecord | undefined> {
  const { rows } = await db.query("SELECT * FROM schedules WHERE id = $1", [id]);
  return rows[0] === undefined ? undefined : scheduleFromRow(rows[0] as StoredRow);
}

export async function listSchedules(db: Db, filter: ScheduleFilter = {}): Promise<ScheduleRecord[]> {
  const where = new WhereClause();
  where.oneOf("status", statusList(filter.status), SCHEDULE_STATUSES);
  const { rows } = await db.query(`SELECT * FROM schedules${where.clause()} ORDER BY created_at, id`, where.values);
  return rows.map((row) => scheduleFromRow(row as StoredRow));
}

export async function deleteSchedule(db: Db, id: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM schedules WHERE id = $1", [id]);
  return (rowCount ?? 0) > 0;
}
