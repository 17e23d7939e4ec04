import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { usage } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: runs (depth, usage, ending once, listing, interruption, spawn settings). */
export function describeRuns(open: () => ClockedStore): void {
  describe("runs", () => {
    let h: ClockedStore;
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      h = opened;
      store = opened.store;
    });

    it("derives depth from the parent chain and refuses duplicates and unknown parents", async () => {
      const root = await store.startRun({ id: "r1", sessionKey: "s", agentId: "main" });
      const child = await store.startRun({ id: "r2", sessionKey: "s:sub", agentId: "main", parentRunId: "r1" });
      const grandchild = await store.startRun({
        id: "r3",
        sessionKey: "s:sub:sub",
        agentId: "main",
        parentRunId: "r2",
      });
      expect([root.depth, child.depth, grandchild.depth]).toEqual([0, 1, 2]);
      expect(root).toEqual({
        id: "r1",
        sessionKey: "s",
        depth: 0,
        agentId: "main",
        status: "running",
        startedAt: h.clock.now,
        usage: usage(0, 0),
      });
      expect(grandchild.parentRunId).toBe("r2");
      expect((await rejection(store.startRun({ id: "r1", sessionKey: "s", agentId: "main" }))).code).toBe("conflict");
      const orphan = store.startRun({ id: "r9", sessionKey: "s", agentId: "main", parentRunId: "ghost" });
      expect((await rejection(orphan)).code).toBe("not-found");
    });

    it("records usage, ends a run once, and refuses changes to an ended run", async () => {
      await store.startRun({ id: "r1", sessionKey: "s", agentId: "main" });
      const running = await store.updateRun("r1", { usage: usage(120, 0.01) });
      expect(running.status).toBe("running");
      expect(running.usage.totalTokens).toBe(120);
      h.clock.now += 2500;
      const ended = await store.updateRun("r1", {
        status: "failed",
        error: "model overloaded",
        usage: usage(150, 0.02),
      });
      expect(ended).toMatchObject({ status: "failed", endedAt: h.clock.now, error: "model overloaded" });
      expect(ended.usage.cost.total).toBe(0.02);
      expect((await rejection(store.updateRun("r1", { status: "completed" }))).code).toBe("invalid-state");
      expect((await rejection(store.updateRun("nope", { status: "completed" }))).code).toBe("not-found");
      expect(await store.getRun("r1")).toEqual(ended);
    });

    it("returns a run's usage detached from the caller's, and keeps it when a patch has none", async () => {
      await store.startRun({ id: "r1", sessionKey: "s", agentId: "main" });
      const given = usage(120, 0.01);
      const running = await store.updateRun("r1", { usage: given });
      given.totalTokens = 999;
      expect(running.usage).toEqual(usage(120, 0.01));
      const ended = await store.updateRun("r1", { status: "completed", error: "late" });
      expect(ended.usage).toEqual(usage(120, 0.01));
      expect(structuredClone(ended)).toEqual(await store.getRun("r1"));
    });

    it("lists runs by status, session and parent, oldest first", async () => {
      await store.startRun({ id: "a", sessionKey: "s1", agentId: "main" });
      h.clock.now += 1;
      await store.startRun({ id: "b", sessionKey: "s1:sub", agentId: "main", parentRunId: "a" });
      h.clock.now += 1;
      await store.startRun({ id: "c", sessionKey: "s2", agentId: "helper" });
      await store.updateRun("c", { status: "completed" });
      expect((await store.listRuns({ status: "running" })).map((r) => r.id)).toEqual(["a", "b"]);
      expect((await store.listRuns({ status: ["completed", "failed"] })).map((r) => r.id)).toEqual(["c"]);
      expect((await store.listRuns({ parentRunId: "a" })).map((r) => r.id)).toEqual(["b"]);
      expect((await store.listRuns({ agentId: "helper" })).map((r) => r.id)).toEqual(["c"]);
      expect((await store.listRuns({ sessionKey: "s1", limit: 5 })).map((r) => r.id)).toEqual(["a"]);
      expect((await store.listRuns()).map((r) => r.id)).toEqual(["a", "b", "c"]);
    });

    it("marks runs left running as interrupted at recovery, and only those", async () => {
      await store.startRun({ id: "done", sessionKey: "s", agentId: "main" });
      await store.updateRun("done", { status: "completed" });
      await store.startRun({ id: "live", sessionKey: "s", agentId: "main" });
      await store.startRun({ id: "live-child", sessionKey: "s:sub", agentId: "main", parentRunId: "live" });
      const interrupted = await store.interruptRunningRuns("gateway restarted");
      expect(interrupted.map((r) => [r.id, r.status, r.error])).toEqual([
        ["live", "interrupted", "gateway restarted"],
        ["live-child", "interrupted", "gateway restarted"],
      ]);
      expect(await store.listRuns({ status: "running" })).toEqual([]);
      expect((await store.getRun("done"))?.status).toBe("completed");
    });

    it("keeps a sub-agent run's spawn settings through start, listing, update and interruption", async () => {
      const spawn = { label: "research", timeoutSeconds: 900, trustTier: "owner" as const };
      await store.startRun({ id: "root", sessionKey: "s", agentId: "main" });
      const started = await store.startRun({
        id: "kid",
        sessionKey: "s:sub",
        agentId: "helper",
        parentRunId: "root",
        spawn,
      });
      expect(started.spawn).toEqual(spawn);
      expect((await store.getRun("kid"))?.spawn).toEqual(spawn);
      expect((await store.listRuns({ parentRunId: "root" })).map((run) => run.spawn)).toEqual([spawn]);
      expect((await store.updateRun("kid", { error: "slow" })).spawn).toEqual(spawn);
      const [interrupted] = (await store.interruptRunningRuns()).filter((run) => run.id === "kid");
      expect(interrupted?.spawn).toEqual(spawn);
      // A run started without them has none.
      expect(await store.getRun("root")).not.toHaveProperty("spawn");
    });
  });
}
