import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, type ScheduleRecord, type SessionStore, TestChannel } from "@chorus/gateway";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { captureIo } from "./support/capture-io.js";

const model = fakeModel();
const scope = { channel: "test", accountId: "main" };

/** A gateway on `store` whose model answers "answer <n>" with how many messages it was shown. */
async function gatewayOn(store: SessionStore) {
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const streamFn = scriptedStreamFn((context) => `answer ${context.messages.length}`);
  const gateway = new Gateway({
    config: {
      agents: [{ id: "main", model: model.id }],
      channels: [{ channel: "test", dmPolicy: "pairing" as const }],
    },
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 200 },
  });
  await gateway.start();
  const send = async (sender: string, text: string, eventId: string) => {
    await channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
    await gateway.idle();
  };
  return { gateway, channel, streamFn, send };
}

let dir: string;
let database: ScratchDatabase;
let file: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-store-copy-"));
  file = join(dir, "chorus.db");
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A stored `/schedule` (the gateway writes its `data`; the copy carries it as it is). */
const schedule: ScheduleRecord = {
  id: "s-0000abcd",
  status: "active",
  nextRunAt: 1_800_000_000_000,
  data: { spec: { kind: "every", everyMs: 3_600_000 }, prompt: "stand-up", sessionKey: "main:main:test:dm:ann" },
  createdAt: 1_790_000_000_000,
  updatedAt: 1_790_000_000_000,
};

describe("chorus store copy (SQLite → PostgreSQL)", () => {
  it("copies a store a gateway filled, and a gateway on PostgreSQL continues its conversations", async () => {
    const sqlite = SqliteSessionStore.open({ path: file });
    const before = await gatewayOn(sqlite);
    try {
      // ann and bob are paired (their codes approved), zed's request stays pending.
      for (const sender of ["ann", "bob", "zed"]) await before.send(sender, "hi", `pair-${sender}`);
      for (const request of await before.gateway.pairing.list(scope)) {
        if (request.senderId !== "zed") await before.gateway.pairing.approve(scope, request.code);
      }
      await before.send("ann", "one", "ann-1");
      await before.send("ann", "two", "ann-2");
      await before.send("bob", "one", "bob-1");
      expect(before.channel.transcript("dm-ann").slice(-2)).toEqual(["answer 1", "answer 3"]);
      await sqlite.putSchedule(schedule);
      // A gateway holds the SQLite store: the copy is refused and writes nothing.
      const refused = captureIo(dir, {});
      expect(await runCli(["store", "copy", "--from", file, "--to", database.url], refused)).toBe(1);
      expect(refused.err()).toContain("chorus store copy:");
      expect(refused.err()).toMatch(/in use|another Chorus/i);
    } finally {
      await before.gateway.stop(0);
      await sqlite.close();
    }

    const io = captureIo(dir, {});
    expect(await runCli(["store", "copy", "--from", file, "--to", database.url], io)).toBe(0);
    expect(io.out()).toMatch(/sessions\s+2\n/);
    expect(io.out()).toMatch(/transcript_messages\s+6\n/);
    expect(io.out()).toMatch(/runs\s+3\n/);
    expect(io.out()).toMatch(/pairing_requests\s+1\n/);
    expect(io.out()).toMatch(/paired_senders\s+2\n/);
    expect(io.out()).toMatch(/schedules\s+1\n/);

    const postgres = await PostgresSessionStore.open({ url: database.url });
    const after = await gatewayOn(postgres);
    try {
      // A copied event id is still known: the platform redelivering it gets no second answer.
      await after.send("ann", "two", "ann-2");
      expect(after.streamFn.calls).toHaveLength(0);
      // ann goes on where she was: the model sees the four earlier messages, the transcript keeps its seqs.
      await after.send("ann", "three", "ann-3");
      expect(after.channel.transcript("dm-ann")).toEqual(["answer 5"]);
      const annKey = (await postgres.listSessions()).find((session) => session.chatId === "dm-ann")?.key ?? "";
      const transcript = await postgres.readTranscript(annKey);
      expect(transcript.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(transcript.map((entry) => entry.message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      // New outbox entries take ids after the copied ones; zed is still waiting for approval.
      const outbox = await postgres.listOutbox();
      expect(new Set(outbox.map((entry) => entry.id)).size).toBe(outbox.length);
      expect((await after.gateway.pairing.list(scope)).map((request) => request.senderId)).toEqual(["zed"]);
      // The schedule came along, as written.
      expect(await postgres.listSchedules()).toEqual([schedule]);
      // A gateway holds the PostgreSQL database: refused before anything is read or written there.
      const held = captureIo(dir, {});
      expect(await runCli(["store", "copy", "--from", file, "--to", database.url], held)).toBe(1);
      expect(held.err()).toContain("Another Chorus instance is using this database");
    } finally {
      await after.gateway.stop(0);
      await postgres.close();
    }

    const again = captureIo(dir, {});
    expect(await runCli(["store", "copy", "--from", file, "--to", database.url], again)).toBe(1);
    expect(again.err()).toContain("already has data");
  });
});
