import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SUMMARY_PREFIX } from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { SESSION_MEMORY_SETTING } from "../src/index.js";
import {
  isRefresh,
  isSummariser,
  MEDIUM,
  memoryScript,
  sessionKeyOf,
  startMemoryHarness,
} from "./fixtures/session-memory-gateway.js";

/** A store kind: how to open the same store again (a restart), and its cleanup. */
interface StoreKind {
  readonly name: string;
  open(): Promise<SessionStore>;
  cleanup(): Promise<void>;
}

function sqlite(): StoreKind {
  const dir = mkdtempSync(join(tmpdir(), "chorus-session-memory-"));
  return {
    name: "SQLite",
    open: async () => SqliteSessionStore.open({ path: join(dir, "store.db") }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgres(): StoreKind {
  let database: Promise<ScratchDatabase> | undefined;
  const scratch = (): Promise<ScratchDatabase> => {
    database ??= createScratchDatabase();
    return database;
  };
  return {
    name: "PostgreSQL",
    open: async () => PostgresSessionStore.open({ url: (await scratch()).url, onWarning: () => {} }),
    cleanup: async () => (await database)?.drop(),
  };
}

const kinds = [sqlite(), postgres()];
afterAll(async () => {
  for (const kind of kinds) await kind.cleanup();
});

describe.each(kinds)("the kept summary is stored with the session ($name)", (kind) => {
  it("a new gateway on the same store applies the stored summary at its first compaction, with no summariser call", async () => {
    // Before the restart: a window too large to compact; the summary is refreshed and stored as the chat grows.
    const before = await kind.open();
    const first = await startMemoryHarness({ store: before, window: 200_000, script: memoryScript("stored") });
    for (let i = 1; i <= 10; i++) await first.send({ text: `message ${i} ${MEDIUM}` });
    const key = await sessionKeyOf(before);
    const stored = (await before.getSession(key))?.settings[SESSION_MEMORY_SETTING] as { text: string };
    expect(stored.text).toMatch(/^stored summary \d+$/);
    await first.close();
    await before.close();

    // After it: the same store, a window that compacts at the next message.
    const after = await kind.open();
    const second = await startMemoryHarness({ store: after, window: 12_000, script: memoryScript("new") });
    try {
      // A message id of its own: the new TestChannel counts from 1 again, and the store remembers ids it saw.
      await second.send({ text: `message 11 ${MEDIUM}`, messageId: "after-restart" });
      const calls = second.streamFn.calls;
      expect(calls.some((call) => isSummariser(call.context))).toBe(false);
      const turn = calls.find((call) => !isRefresh(call.context));
      const opening = turn?.context.messages[0]?.content;
      expect(opening).toBe(`${SUMMARY_PREFIX}${stored.text}`);
      expect(second.channel.transcript("dm-user-1").some((line) => line === "answer 1")).toBe(true);
    } finally {
      await second.close();
      await after.close();
    }
  }, 30_000);
});
