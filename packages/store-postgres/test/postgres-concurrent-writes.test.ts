import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

// The embedded stores run one call at a time; this one runs calls on several connections at once. These are the
// races a single gateway can make (two messages in one group chat, /stop while a turn commits), settled by Postgres.

let database: ScratchDatabase;
let store: PostgresSessionStore;
beforeAll(async () => {
  database = await createScratchDatabase();
  store = await PostgresSessionStore.open({ url: database.url, poolSize: 8 });
});
afterAll(async () => {
  await store?.close();
  await database.drop();
});

const group = {
  key: "main:bot:telegram:group:-100",
  agentId: "main",
  channel: "telegram",
  accountId: "bot",
  chatId: "-100",
};
const said = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });

describe("concurrent writes on PostgreSQL", () => {
  it("gives messages stored at the same time distinct consecutive seqs, and creates their session once", async () => {
    const stored = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.storeInboundMessage({
          event: { channel: "telegram", accountId: "bot", eventId: `burst-${i}` },
          session: group,
          message: said(`m${i}`),
        }),
      ),
    );
    expect(stored.map((result) => result?.seq).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(stored.filter((result) => result?.created)).toHaveLength(1);
    expect((await store.readTranscript(group.key)).map((entry) => entry.seq)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect((await store.getSession(group.key))?.lastSeq).toBe(20);
  });

  it("lets exactly one of a turn commit and a run's abort win, and a refused turn writes nothing", async () => {
    const session = { ...group, key: "main:bot:telegram:dm:race", chatId: "race" };
    await store.ensureSession(session);
    for (let round = 0; round < 15; round++) {
      const runId = `race-${round}`;
      await store.startRun({ id: runId, sessionKey: session.key, agentId: "main" });
      const before = (await store.getSession(session.key))?.lastSeq ?? 0;
      const [commit, abort] = await Promise.allSettled([
        store.commitTurn({
          sessionKey: session.key,
          messages: [said(`q${round}`), said(`a${round}`)],
          run: { id: runId, patch: { status: "completed" } },
          outbox: [{ sessionKey: session.key, runId, kind: "reply", payload: { text: `a${round}` } }],
          claimOutbox: true,
        }),
        store.updateRun(runId, { status: "aborted" }),
      ]);
      expect([commit.status, abort.status].sort()).toEqual(["fulfilled", "rejected"]);
      const lastSeq = (await store.getSession(session.key))?.lastSeq ?? 0;
      const replies = await store.listOutbox({ sessionKey: session.key });
      const run = await store.getRun(runId);
      if (commit.status === "fulfilled") {
        expect(run?.status).toBe("completed");
        expect(lastSeq).toBe(before + 2);
        expect(replies.filter((entry) => entry.runId === runId)).toHaveLength(1);
      } else {
        expect(commit.reason).toMatchObject({ code: "invalid-state" });
        expect(run?.status).toBe("aborted");
        expect(lastSeq).toBe(before);
        expect(replies.filter((entry) => entry.runId === runId)).toEqual([]);
      }
    }
  });

  it("never hands one due outbox entry to two claimers", async () => {
    const session = { ...group, key: "main:bot:telegram:dm:claims", chatId: "claims" };
    await store.ensureSession(session);
    await store.enqueueOutbox(
      Array.from({ length: 30 }, (_, i) => ({ sessionKey: session.key, kind: "notice" as const, payload: i })),
    );
    const claims = await Promise.all(Array.from({ length: 6 }, () => store.claimDueOutbox(10)));
    const ids = claims.flat().map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(30);
  });
});
