import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "../src/testing/index.js";

// `TurnCommit.sideWrites.onClient`: another component's rows (long-term memory's facts) commit with the turn, or not
// at all. Here the side write is a row in a table of its own.

let database: ScratchDatabase;
let store: PostgresSessionStore;
beforeAll(async () => {
  database = await createScratchDatabase();
  store = await PostgresSessionStore.open({ url: database.url });
  await queryOnce(database.url, "CREATE TABLE turn_notes (note text NOT NULL)");
});
afterAll(async () => {
  await store?.close();
  await database.drop();
});

const session = {
  key: "main:bot:telegram:dm:42",
  agentId: "main",
  channel: "telegram",
  accountId: "bot",
  chatId: "42",
};
const said = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
type Client = { query(text: string, values?: unknown[]): Promise<unknown> };
const note = (text: string) => ({
  onClient: async (client: unknown) => {
    await (client as Client).query("INSERT INTO turn_notes (note) VALUES ($1)", [text]);
    return true;
  },
});
const notes = async () =>
  (await queryOnce(database.url, "SELECT note FROM turn_notes ORDER BY note")).rows.map((r) => r.note);

describe("side writes joined to a turn commit on PostgreSQL", () => {
  it("commits them with the turn and says so", async () => {
    await store.ensureSession(session);
    const result = await store.commitTurn({ sessionKey: session.key, messages: [said("hi")], sideWrites: note("a") });
    expect(result.sideWritten).toBe(true);
    expect(await notes()).toEqual(["a"]);
    expect((await store.readTranscript(session.key)).map((entry) => entry.message)).toEqual([said("hi")]);
  });

  it("writes neither when the turn is refused (its run already ended)", async () => {
    await store.startRun({ id: "run-ended", sessionKey: session.key, agentId: "main" });
    await store.updateRun("run-ended", { status: "aborted" });
    const before = (await store.getSession(session.key))?.lastSeq;
    await expect(
      store.commitTurn({
        sessionKey: session.key,
        messages: [said("late")],
        run: { id: "run-ended", patch: { status: "completed" } },
        sideWrites: note("refused"),
      }),
    ).rejects.toMatchObject({ code: "invalid-state" });
    expect(await notes()).toEqual(["a"]);
    expect((await store.getSession(session.key))?.lastSeq).toBe(before);
  });

  it("writes no turn when a side write fails", async () => {
    const before = (await store.getSession(session.key))?.lastSeq;
    const failing = {
      onClient: async (client: unknown) => {
        await (client as Client).query("INSERT INTO turn_notes (note) VALUES (NULL)");
        return true;
      },
    };
    await expect(
      store.commitTurn({ sessionKey: session.key, messages: [said("lost")], sideWrites: failing }),
    ).rejects.toThrow();
    expect((await store.getSession(session.key))?.lastSeq).toBe(before);
  });

  it("reports nothing written when the side write declines this database", async () => {
    const result = await store.commitTurn({
      sessionKey: session.key,
      messages: [said("plain")],
      sideWrites: { onClient: async () => false, sync: () => true },
    });
    expect(result.sideWritten).toBeUndefined();
  });
});
