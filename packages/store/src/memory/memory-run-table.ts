import { buildRunRecord } from "../core/record-builders.js";
import { assertRunning, checkLimit, notFound, statusList } from "../core/store-validation.js";
import { zeroUsage } from "../core/zero-usage.js";
import { SessionStoreError } from "../session-store-error.js";
import type { NewRun, RunFilter, RunPatch, RunRecord } from "../store-types.js";
import { cloneJson, compareText, deepFreeze } from "./memory-rows.js";
import type { UndoJournal } from "./undo-journal.js";

/**
 * The in-memory runs by id: started, updated while running, then ended once. Records are frozen and replaced; every
 * write goes through the store's journal, so it rolls back with the transaction it was made in.
 * The methods are `SessionStoreCore`'s run operations (`start` is `startRun`, and so on).
 */
export class MemoryRunTable {
  readonly #journal: UndoJournal;
  readonly #now: () => number;
  readonly #runs = new Map<string, RunRecord>();

  constructor(journal: UndoJournal, now: () => number) {
    this.#journal = journal;
    this.#now = now;
  }

  start(input: NewRun): RunRecord {
    if (this.#runs.has(input.id)) {
      throw new SessionStoreError("conflict", `A run with id ${JSON.stringify(input.id)} already exists.`);
    }
    let depth = 0;
    if (input.parentRunId !== undefined) {
      const parent = this.#runs.get(input.parentRunId);
      if (parent === undefined) throw notFound("parent run", input.parentRunId);
      depth = parent.depth + 1;
    }
    const run = deepFreeze(
      buildRunRecord({ ...input, depth, status: "running", startedAt: this.#now(), usage: zeroUsage() }),
    );
    this.#journal.put(this.#runs, input.id, run);
    return run;
  }

  get(id: string): RunRecord | undefined {
    return this.#runs.get(id);
  }

  list(filter: RunFilter = {}): RunRecord[] {
    const limit = checkLimit(filter.limit);
    const statuses = statusList(filter.status);
    const found = [...this.#runs.values()].filter(
      (r) =>
        (statuses === undefined || statuses.includes(r.status)) &&
        (filter.sessionKey === undefined || r.sessionKey === filter.sessionKey) &&
        (filter.agentId === undefined || r.agentId === filter.agentId) &&
        (filter.parentRunId === undefined || r.parentRunId === filter.parentRunId),
    );
    found.sort((a, b) => a.startedAt - b.startedAt || compareText(a.id, b.id));
    return limit === undefined ? found : found.slice(0, limit);
  }

  update(id: string, patch: RunPatch): RunRecord {
    const current = this.#runs.get(id);
    if (current === undefined) throw notFound("run", id);
    assertRunning(id, current.status);
    const next = deepFreeze(
      buildRunRecord({
        ...current,
        status: patch.status ?? current.status,
        endedAt: patch.status === undefined ? undefined : this.#now(),
        usage: patch.usage === undefined ? current.usage : cloneJson(patch.usage, "run usage"),
        error: patch.error ?? current.error,
      }),
    );
    this.#journal.put(this.#runs, id, next);
    return next;
  }

  interruptRunning(error?: string): RunRecord[] {
    const running = this.list({ status: "running" });
    return running.map((run) =>
      this.update(run.id, { status: "interrupted", ...(error !== undefined ? { error } : {}) }),
    );
  }
}
