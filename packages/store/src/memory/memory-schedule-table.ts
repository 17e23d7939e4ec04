import { statusList, toStoredJson } from "../core/store-validation.js";
import type { ScheduleFilter, ScheduleRecord } from "../store-types.js";
import { compareText, type HeldSchedule, scheduleOf } from "./memory-rows.js";
import type { UndoJournal } from "./undo-journal.js";

/**
 * The in-memory schedules by id. `data` is kept as JSON text, so the store never shares objects with callers; every
 * write goes through the store's journal, so it rolls back with the transaction it was made in.
 * The methods are `SessionStoreCore`'s schedule operations (`put` is `putSchedule`, and so on).
 */
export class MemoryScheduleTable {
  readonly #journal: UndoJournal;
  readonly #schedules = new Map<string, HeldSchedule>();

  constructor(journal: UndoJournal) {
    this.#journal = journal;
  }

  put(schedule: ScheduleRecord): void {
    const { data, ...rest } = schedule;
    const held = Object.freeze({ ...rest, dataJson: toStoredJson(data, "schedule's data") });
    this.#journal.put(this.#schedules, schedule.id, held);
  }

  get(id: string): ScheduleRecord | undefined {
    const held = this.#schedules.get(id);
    return held === undefined ? undefined : scheduleOf(held);
  }

  list(filter: ScheduleFilter = {}): ScheduleRecord[] {
    const statuses = statusList(filter.status);
    return [...this.#schedules.values()]
      .filter((held) => statuses === undefined || statuses.includes(held.status))
      .sort((a, b) => a.createdAt - b.createdAt || compareText(a.id, b.id))
      .map(scheduleOf);
  }

  delete(id: string): boolean {
    return this.#journal.remove(this.#schedules, id);
  }
}
