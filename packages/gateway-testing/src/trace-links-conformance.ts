import { assistantText } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";

const session = { key: "main:bot:test:dm:u1", agentId: "main", channel: "test", accountId: "bot", chatId: "dm-u1" };
const RUN_SPAN = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const TURN_SPAN = "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01";

/**
 * Part of the conformance suite: the W3C traceparents written with a run's first commit and with outbox entries come
 * back from every read — the run's after a restart interrupted it, the entry's when the poll claims it for a retry.
 */
export function describeTraceLinks(create: () => ClockedStore): void {
  describe("trace links", () => {
    it("keeps a run's traceparent from its first commit through the restart that interrupts it", async () => {
      const { store, cleanup } = create();
      try {
        await store.ensureSession(session);
        const first = await store.commitTurn({
          sessionKey: session.key,
          messages: [assistantText("calling a tool")],
          run: { id: "run-1", start: { agentId: "main", traceparent: RUN_SPAN } },
        });
        expect(first.run?.traceparent).toBe(RUN_SPAN);
        expect((await store.getRun("run-1"))?.traceparent).toBe(RUN_SPAN);
        const [interrupted] = await store.interruptRunningRuns("the gateway restarted");
        expect(interrupted).toMatchObject({ id: "run-1", status: "interrupted", traceparent: RUN_SPAN });
        expect((await store.listRuns({ status: "interrupted" }))[0]?.traceparent).toBe(RUN_SPAN);
      } finally {
        await cleanup();
      }
    });

    it("keeps the traceparent of runs started by startRun, and leaves it out where none was given", async () => {
      const { store, cleanup } = create();
      try {
        const started = await store.startRun({ id: "run-1", sessionKey: "s", agentId: "main", traceparent: RUN_SPAN });
        await store.startRun({ id: "run-2", sessionKey: "s", agentId: "main" });
        expect(started.traceparent).toBe(RUN_SPAN);
        const ended = await store.updateRun("run-1", { status: "completed" });
        expect(ended.traceparent).toBe(RUN_SPAN);
        const plain = await store.getRun("run-2");
        expect(plain).toBeDefined();
        expect(Object.hasOwn(plain ?? {}, "traceparent")).toBe(false);
      } finally {
        await cleanup();
      }
    });

    it("keeps an outbox entry's traceparent for a retry claimed by the poll", async () => {
      const { store, cleanup, clock } = create();
      try {
        await store.ensureSession(session);
        const { outbox } = await store.commitTurn({
          sessionKey: session.key,
          messages: [assistantText("hi")],
          outbox: [
            { sessionKey: session.key, kind: "reply", payload: { text: "hi" }, traceparent: TURN_SPAN },
            { sessionKey: session.key, kind: "notice", payload: { text: "note" } },
          ],
          claimOutbox: true,
        });
        expect(outbox.map((entry) => entry.traceparent)).toEqual([TURN_SPAN, undefined]);
        const [entry] = outbox;
        await store.markOutboxFailed(entry!.id, { error: "network", retryAt: clock.now + 1000 });
        clock.now += 1000;
        const [retried] = await store.claimDueOutbox(10);
        expect(retried).toMatchObject({ id: entry!.id, status: "in-flight", attempts: 2, traceparent: TURN_SPAN });
        const [queued] = await store.enqueueOutbox([
          { sessionKey: session.key, kind: "reply", payload: { text: "later" }, traceparent: TURN_SPAN },
        ]);
        expect(queued?.traceparent).toBe(TURN_SPAN);
        expect((await store.getOutboxEntry(queued!.id))?.traceparent).toBe(TURN_SPAN);
      } finally {
        await cleanup();
      }
    });
  });
}
