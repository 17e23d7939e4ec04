import type { SubagentRunRecord } from "./subagent-types.js";

interface Entry {
  record: SubagentRunRecord;
  controller: AbortController;
}

/**
 * Every child run of one Subagents instance, by run id, with its abort controller.
 * Contract: records are kept after the run ends (for list_subagents and redelivery) until
 * `forget` is called.
 */
export class SubagentRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly spawnCounts = new Map<string, number>();

  add(record: SubagentRunRecord, controller: AbortController): void {
    this.entries.set(record.runId, { record, controller });
    this.spawnCounts.set(record.parentRunId, (this.spawnCounts.get(record.parentRunId) ?? 0) + 1);
  }

  get(runId: string): SubagentRunRecord | undefined {
    return this.entries.get(runId)?.record;
  }

  /** Children spawned by a run so far (ended ones included). */
  spawnedBy(parentRunId: string): number {
    return this.spawnCounts.get(parentRunId) ?? 0;
  }

  childrenOf(parentRunId: string): SubagentRunRecord[] {
    return [...this.entries.values()].filter((e) => e.record.parentRunId === parentRunId).map((e) => e.record);
  }

  all(): SubagentRunRecord[] {
    return [...this.entries.values()].map((e) => e.record);
  }

  /**
   * Aborts a run and, first, every running descendant (cascade).
   * Contract: returns the run ids that were running and are now aborted.
   */
  cancelTree(runId: string, reason: string): string[] {
    const cancelled: string[] = [];
    for (const child of this.childrenOf(runId)) cancelled.push(...this.cancelTree(child.runId, reason));
    const entry = this.entries.get(runId);
    if (entry && entry.record.status === "running" && !entry.controller.signal.aborted) {
      entry.controller.abort(new Error(reason));
      cancelled.push(runId);
    }
    return cancelled;
  }

  /** Aborts every running descendant of a run (the run itself is not a child here). */
  cancelChildren(parentRunId: string, reason: string): string[] {
    return this.childrenOf(parentRunId).flatMap((c) => this.cancelTree(c.runId, reason));
  }

  forget(runId: string): void {
    this.entries.delete(runId);
  }
}
