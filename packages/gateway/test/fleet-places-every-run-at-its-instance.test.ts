import { emptyUsage } from "@chorus/core";
import type { RunRecord } from "@chorus/store";
import { describe, expect, it } from "vitest";
import { placeRuns } from "../src/fleet/cluster-placement.js";
import { buildFleetView } from "../src/fleet/fleet-view.js";
import { renderFleet } from "../src/fleet/render-fleet.js";
import { RunTracker } from "../src/fleet/run-tracker.js";
import type { ClusterInstance } from "../src/ownership/index.js";

function running(id: string, depth: number, parentRunId?: string): RunRecord {
  return {
    id,
    sessionKey: `main:main:test:dm:${id}`,
    agentId: "main",
    depth,
    status: "running",
    startedAt: 0,
    usage: emptyUsage(),
    ...(parentRunId === undefined ? {} : { parentRunId }),
  };
}

const instances: ClusterInstance[] = [
  { id: "a#1", self: true, shards: 32, beatAgeMs: 300, runs: [] },
  { id: "b#2", self: false, shards: 32, beatAgeMs: 1200, runs: [{ runId: "run_b", tokens: 840, cost: 0.0021 }] },
];

function view(runs: RunRecord[], live = new RunTracker()) {
  return buildFleetView({
    agents: [],
    bindings: [],
    sessions: [],
    runs,
    runSessions: new Map(),
    live,
    cluster: { instances, placement: placeRuns(instances, live) },
    now: 10_000,
  });
}

describe("/agents in a cluster", () => {
  it("shows each run with the instance running it, that instance's heartbeat age and its reported usage", () => {
    const lines = renderFleet(view([running("run_b", 0)])).split("\n");
    expect(lines.find((line) => line.includes("run_b"))).toMatch(
      /^▪ `run_b` main · depth 0 · running · 10 s · 840 tokens · \$0\.0021 · \? \? · on b#2 \(beat 1\.2 s ago\)$/,
    );
    expect(lines).toContain("- a#1 (this one): 32 shard(s) · beat 0.3 s ago · 0 live run(s)");
    expect(lines).toContain("- b#2: 32 shard(s) · beat 1.2 s ago · 1 live run(s)");
  });

  it("places a run not reported yet where its parent runs, and this instance's own runs here", () => {
    const live = new RunTracker();
    live.add({
      runId: "run_here",
      sessionKey: "main:main:test:dm:here",
      agentId: "main",
      depth: 0,
      startedAt: 0,
      usage: () => emptyUsage(),
      abort: () => {},
    });
    const runs = [running("run_b", 0), running("run_kid", 1, "run_b"), running("run_x", 0), running("run_here", 0)];
    const text = renderFleet(view(runs, live));
    expect(text).toMatch(/`run_here` .* on a#1 \(beat 0\.3 s ago\)$/m);
    expect(text).toMatch(/`run_kid` .* on b#2 \(beat 1\.2 s ago\)$/m);
    expect(text).toMatch(/`run_x` .* on \(not reported yet\)$/m);
  });
});
