import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistantText } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import { MemorySessionStore, type SessionStore, SqliteSessionStore } from "../src/store/index.js";

const implementations: [string, () => { store: SessionStore; cleanup: () => Promise<void> }][] = [
  [
    "MemorySessionStore",
    () => {
      const store = new MemorySessionStore();
      return { store, cleanup: () => store.close() };
    },
  ],
  [
    "SqliteSessionStore",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "chorus-claim-"));
      const store = SqliteSessionStore.open({ path: join(dir, "chorus.db") });
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

const session = { key: "main:bot:test:dm:u1", agentId: "main", channel: "test", accountId: "bot", chatId: "dm-u1" };

describe.each(implementations)("%s: commitTurn with claimOutbox", (_name, create) => {
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
