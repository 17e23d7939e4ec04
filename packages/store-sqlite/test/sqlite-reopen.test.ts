import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { assistantText, userMessage } from "@chorus/core/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-reopen-"));
  path = join(dir, "nested", "state", "chorus.db");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const session = { key: "main:bot:slack:group:C01", agentId: "main", channel: "slack", accountId: "bot", chatId: "C01" };

it("uses ./data/chorus.db under the working directory by default", async () => {
  const previous = process.cwd();
  process.chdir(dir);
  try {
    const store = SqliteSessionStore.open();
    await store.close();
    expect(existsSync(join(dir, "data", "chorus.db"))).toBe(true);
  } finally {
    process.chdir(previous);
  }
});

it("creates the file and its folders, in WAL mode", async () => {
  const store = SqliteSessionStore.open({ path });
  await store.ensureSession(session);
  await store.close();
  const raw = new DatabaseSync(path);
  try {
    expect(raw.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  } finally {
    raw.close();
  }
});

it("finds everything again after a reopen: session, transcript, runs, outbox, pairing and seen events", async () => {
  const first = SqliteSessionStore.open({ path });
  await first.ensureSession({ ...session, title: "Standup" });
  await first.updateSession(session.key, { modelOverride: "gpt-5", queueModeOverride: "followup" });
  await first.startRun({ id: "run-1", sessionKey: session.key, agentId: "main" });
  await first.commitTurn({
    sessionKey: session.key,
    messages: [userMessage("status?"), assistantText("all green")],
    outbox: [{ sessionKey: session.key, runId: "run-1", kind: "reply", payload: { text: "all green" } }],
  });
  const scope = { channel: "slack", accountId: "bot" };
  const now = Date.now();
  const request = {
    scope,
    code: "PAIR0001",
    senderId: "U1",
    senderName: "Ann",
    createdAt: now,
    expiresAt: now + 3_600_000,
  };
  await first.insertPending(request, { maxPending: 3, now });
  await first.addApproved(scope, "U2", now);
  expect(await first.recordInboundEvent({ channel: "slack", accountId: "bot", eventId: "Ev1" })).toBe(true);
  const before = {
    session: await first.getSession(session.key),
    transcript: await first.readTranscript(session.key),
    runs: await first.listRuns(),
    outbox: await first.listOutbox(),
  };
  await first.close();

  const second = SqliteSessionStore.open({ path });
  try {
    expect(await second.getSession(session.key)).toEqual(before.session);
    expect(before.session?.modelOverride).toBe("gpt-5");
    expect(await second.readTranscript(session.key)).toEqual(before.transcript);
    expect(before.transcript.length).toBe(2);
    expect(await second.listRuns()).toEqual(before.runs);
    expect(await second.listOutbox()).toEqual(before.outbox);
    expect(await second.listPending(scope, now)).toEqual([request]);
    expect(await second.isApproved(scope, "U2")).toBe(true);
    // A platform replaying the event after the restart gets no second reply.
    expect(await second.recordInboundEvent({ channel: "slack", accountId: "bot", eventId: "Ev1" })).toBe(false);
    const interrupted = await second.interruptRunningRuns();
    expect(interrupted.map((r) => r.id)).toEqual(["run-1"]);
  } finally {
    await second.close();
  }
});
