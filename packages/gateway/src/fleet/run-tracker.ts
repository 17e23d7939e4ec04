import type { Usage } from "@chorus/core";

/** A run live in this process: what /agents shows beyond the store, and how to stop it. */
export interface LiveRun {
  readonly runId: string;
  readonly sessionKey: string;
  readonly agentId: string;
  readonly parentRunId?: string;
  readonly depth: number;
  readonly startedAt: number;
  /** Usage so far (the store has it only once the run ends). */
  usage(): Usage;
  /** Stops the run. */
  abort(reason: string): void;
}

/**
 * The runs of this process by id, with their parent links, so that a kill can cascade down the tree.
 * Contract: a run is present from its start until `remove`; `descendantsOf` is nearest first.
 */
export class RunTracker {
  readonly #runs = new Map<string, LiveRun>();

  add(run: LiveRun): void {
    this.#runs.set(run.runId, run);
  }

  remove(runId: string): void {
    this.#runs.delete(runId);
  }

  get(runId: string): LiveRun | undefined {
    return this.#runs.get(runId);
  }

  get size(): number {
    return this.#runs.size;
  }

  all(): LiveRun[] {
    return [...this.#runs.values()];
  }

  /** Every live run below `runId`, children before grandchildren. */
  descendantsOf(runId: string): LiveRun[] {
    const out: LiveRun[] = [];
    const frontier = [runId];
    while (frontier.length > 0) {
      const parent = frontier.shift()!;
      for (const run of this.#runs.values()) {
        if (run.parentRunId === parent) {
          out.push(run);
          frontier.push(run.runId);
        }
      }
    }
    return out;
  }

  /** Aborts a run and every live run below it. Contract: returns the ids stopped, the run itself first. */
  killTree(runId: string, reason: string): string[] {
    const root = this.#runs.get(runId);
    if (root === undefined) return [];
    const below = this.descendantsOf(runId);
    // Children first, so that none of them outlives its parent's abort and reports into a dead run.
    for (const run of below.slice().reverse()) run.abort(reason);
    root.abort(reason);
    return [runId, ...below.map((run) => run.runId)];
  }
}
