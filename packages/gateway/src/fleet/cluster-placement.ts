import type { ClusterInstance, ReportedRun } from "@chorus/store";
import type { RunTracker } from "./run-tracker.js";

/** Where a run lives in a cluster: the instance running it, its heartbeat age and its usage as last reported. */
export interface RunPlacement {
  readonly instance: string;
  readonly beatAgeMs: number;
  /** Usage at the instance's last heartbeat (undefined for a run live in this process: its own usage is newer). */
  readonly reported?: ReportedRun;
}

/** The runs live in this process, as its heartbeat reports them. */
export function reportedRuns(runs: RunTracker): ReportedRun[] {
  return runs.all().map((run) => {
    const usage = run.usage();
    return {
      runId: run.runId,
      tokens: usage.totalTokens,
      cost: usage.cost.total,
      sessionKey: run.sessionKey,
      agentId: run.agentId,
      ...(run.parentRunId === undefined ? {} : { parentRunId: run.parentRunId }),
      depth: run.depth,
      startedAt: run.startedAt,
    };
  });
}

/**
 * Which instance runs each live run: the runs every instance reported at its last heartbeat, and this process's own
 * runs (also those started since its last beat). Contract: a run reported by two instances (moments after a
 * takeover) is placed at the one that beat last.
 */
export function placeRuns(instances: readonly ClusterInstance[], local: RunTracker): Map<string, RunPlacement> {
  const placement = new Map<string, RunPlacement>();
  const newestLast = [...instances].sort((a, b) => b.beatAgeMs - a.beatAgeMs);
  for (const instance of newestLast) {
    for (const run of instance.runs) {
      placement.set(run.runId, { instance: instance.id, beatAgeMs: instance.beatAgeMs, reported: run });
    }
  }
  const self = instances.find((instance) => instance.self);
  if (self !== undefined) {
    for (const run of local.all()) placement.set(run.runId, { instance: self.id, beatAgeMs: self.beatAgeMs });
  }
  return placement;
}
