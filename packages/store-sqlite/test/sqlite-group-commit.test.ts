import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assistantText, userMessage } from "@chorus/core/testing";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

let dir: string;
let path: string;
let store: SqliteSessionStore;
let observer: DatabaseSync;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-group-commit-"));
  path = join(dir, "chorus.db");
  store = SqliteSessionStore.open({ path });
  // A second connection sees only committed data: what it reads is what survives a crash of the writer.
  observer = new DatabaseSync(path, { readOnly: true });
});

afterEach(async () => {
  vi.useRealTimers();
  observer.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const sessionOf = (i: number) => ({
  key: `main:bot:test:dm:u${i}`,
  agentId: "main",
  channel: "test",
  accountId: "bot",
  chatId: `dm-u${i}`,
});

function committedEvents(): number {
  return Number(observer.prepare("SELECT count(*) AS n FROM inbound_events").get()?.n);
}

function committedMessages(key: string): string[] {
  return observer
    .prepare("SELECT message FROM transcript_messages WHERE session_key = ? ORDER BY seq")
    .all(key)
    .map((row) => String(row.message));
}

it("commits the writes of concurrent calls together, and each call resolves only once its write is committed", async () => {
  const calls = Array.from({ length: 50 }, (_, i) =>
    store.recordInboundEvent({ channel: "test", accountId: "bot", eventId: `e${i}` }).then((fresh) => {
      // At the moment a caller hears "done", another connection must already see its write.
      const seen = observer.prepare("SELECT 1 AS found FROM inbound_events WHERE event_id = ?").get(`e${i}`);
      return { fresh, seen: seen !== undefined };
    }),
  );
  // Nothing is committed before the event loop moves on: the 50 writes wait for one COMMIT.
  expect(committedEvents()).toBe(0);
  const outcomes = await Promise.all(calls);
  expect(outcomes.every((outcome) => outcome.fresh && outcome.seen)).toBe(true);
  expect(committedEvents()).toBe(50);
});

it("keeps a failed call's writes out of the batch while the calls around it commit", async () => {
  await store.ensureSession(sessionOf(1));
  await store.startRun({ id: "run-ended", sessionKey: sessionOf(1).key, agentId: "main" });
  await store.updateRun("run-ended", { status: "completed" });

  const before = store.appendMessages(sessionOf(1).key, [userMessage("before")]);
  // Appends its message, then fails on the ended run: nothing of it may stay.
  const failing = store
    .commitTurn({
      sessionKey: sessionOf(1).key,
      messages: [assistantText("half a turn")],
      run: { id: "run-ended", patch: { status: "failed" } },
    })
    .catch((error: unknown) => error);
  const after = store.appendMessages(sessionOf(1).key, [userMessage("after")]);

  expect(await failing).toMatchObject({ code: "invalid-state" });
  await Promise.all([before, after]);
  const messages = committedMessages(sessionOf(1).key);
  expect(messages).toHaveLength(2);
  expect(messages.join(" ")).toContain("before");
  expect(messages.join(" ")).toContain("after");
  expect(messages.join(" ")).not.toContain("half a turn");
  expect(await store.readTranscript(sessionOf(1).key)).toHaveLength(2);
});

it("runs a transaction inside the batch: all of it or none of it, durable when it resolves", async () => {
  const kept = store.transaction(async (tx) => {
    await tx.ensureSession(sessionOf(2));
    await tx.appendMessages(sessionOf(2).key, [userMessage("kept")]);
    return "ok";
  });
  const undone = store
    .transaction(async (tx) => {
      await tx.ensureSession(sessionOf(3));
      await tx.appendMessages(sessionOf(3).key, [userMessage("undone")]);
      throw new Error("changed my mind");
    })
    .catch((error: unknown) => error);
  const alongside = store.recordInboundEvent({ channel: "test", accountId: "bot", eventId: "alongside" });

  expect(await kept).toBe("ok");
  expect(committedMessages(sessionOf(2).key)).toHaveLength(1);
  expect(await undone).toMatchObject({ message: "changed my mind" });
  expect(await alongside).toBe(true);
  expect(committedEvents()).toBe(1);
  expect(await store.getSession(sessionOf(3).key)).toBeUndefined();
  expect(committedMessages(sessionOf(3).key)).toEqual([]);
});

it("still commits while a test fakes the timers", async () => {
  vi.useFakeTimers();
  await store.ensureSession(sessionOf(4));
  await store.appendMessages(sessionOf(4).key, [userMessage("under fake timers")]);
  expect(committedMessages(sessionOf(4).key)).toHaveLength(1);
});

it("commits what is pending when the store closes", async () => {
  const write = store.recordInboundEvent({ channel: "test", accountId: "bot", eventId: "last" });
  await store.close();
  expect(await write).toBe(true);
  expect(committedEvents()).toBe(1);
});

it("commits every call on its own when group commit is off", async () => {
  const single = SqliteSessionStore.open({ path: join(dir, "single.db"), groupCommit: false });
  const other = new DatabaseSync(join(dir, "single.db"), { readOnly: true });
  try {
    const write = single.recordInboundEvent({ channel: "test", accountId: "bot", eventId: "now" });
    // Committed synchronously, before the event loop moves on.
    expect(Number(other.prepare("SELECT count(*) AS n FROM inbound_events").get()?.n)).toBe(1);
    expect(await write).toBe(true);
  } finally {
    other.close();
    await single.close();
  }
});
