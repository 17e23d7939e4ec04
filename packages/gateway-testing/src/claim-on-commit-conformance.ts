import { assistantText } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";

const session = { key: "main:bot:test:dm:u1", agentId: "main", channel: "test", accountId: "bot", chatId: "dm-u1" };

/** Part of the conformance suite: `commitTurn` with `claimOutbox` (the reply already in flight) and without it. */
export function describeClaimOnCommit(create: () => ClockedStore): void {
  describe("commitTurn with claimOutbox", () => {
    it("writes the reply already in flight, so nobody else can claim it, and a restart hands it back", async () => {
      const { store, cleanup } = create();
      try {
        await store.ensureSession(session);
        const { outbox } = await store.commitTurn({
          sessionKey: session.key,
          messages: [assistantText("hi")],
          outbox: [{ sessionKey: session.key, kind: "reply", payload: { text: "hi" } }],
          claimOutbox: true,
        });
        expect(outbox).toHaveLength(1);
        const [entry] = outbox;
        expect(entry).toMatchObject({ status: "in-flight", attempts: 1 });
        expect(await store.claimOutboxEntry(entry!.id)).toBeUndefined();
        expect(await store.claimDueOutbox(10)).toEqual([]);
        expect(await store.requeueInFlightOutbox()).toMatchObject([{ id: entry!.id, status: "pending", attempts: 1 }]);
      } finally {
        await cleanup();
      }
    });

    it("leaves the entries pending without it", async () => {
      const { store, cleanup } = create();
      try {
        await store.ensureSession(session);
        const { outbox } = await store.commitTurn({
          sessionKey: session.key,
          messages: [assistantText("hi")],
          outbox: [{ sessionKey: session.key, kind: "reply", payload: { text: "hi" } }],
        });
        expect(outbox).toMatchObject([{ status: "pending", attempts: 0 }]);
      } finally {
        await cleanup();
      }
    });
  });
}
