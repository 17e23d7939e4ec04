import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, queryOnce } from "../src/testing/index.js";
import { answerTurn, sessionsInLockOrder } from "./fixtures/sessions-in-lock-order.js";

const database = await createScratchDatabase();
afterAll(() => database.drop());

async function storeWithSessions(schema: string, count: number, groupCommit?: false) {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema,
    onWarning: () => {},
    ...(groupCommit === false ? { groupCommit } : {}),
  });
  const sessions = sessionsInLockOrder(schema, count);
  for (const session of sessions) await store.ensureSession(session);
  return { store, sessions, keys: sessions.map((session) => session.key) };
}

/** The answers written in those sessions, as another connection sees them (committed only), with their xmin. */
async function committedAnswers(schema: string, keys: readonly string[]) {
  const { rows } = await queryOnce(
    database.url,
    `SELECT session_key, xmin::text AS xmin FROM ${schema}.transcript_messages WHERE session_key = ANY($1)`,
    [keys],
  );
  return rows as { session_key: string; xmin: string }[];
}

describe("group commit on PostgreSQL", () => {
  it("commits the turns of several sessions made at once in one transaction and one round trip", async () => {
    const { store, sessions, keys } = await storeWithSessions("gc_shared", 5);
    try {
      const before = store.roundTrips;
      const results = await Promise.all(sessions.map((session, i) => store.commitTurn(answerTurn(session, `r${i}`))));
      expect(store.roundTrips - before).toBe(1);
      expect(results.map((result) => result.run?.status)).toEqual(sessions.map(() => "completed"));
      // One transaction wrote every one of them: their rows carry the same xmin.
      const written = await committedAnswers("gc_shared", keys);
      expect(written.map((row) => row.session_key).sort()).toEqual([...keys].sort());
      expect(new Set(written.map((row) => row.xmin)).size).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("sends each write alone with groupCommit: false", async () => {
    const { store, sessions, keys } = await storeWithSessions("gc_off", 5, false);
    try {
      const before = store.roundTrips;
      await Promise.all(sessions.map((session, i) => store.commitTurn(answerTurn(session, `r${i}`))));
      expect(store.roundTrips - before).toBe(sessions.length);
      expect(new Set((await committedAnswers("gc_off", keys)).map((row) => row.xmin)).size).toBe(sessions.length);
    } finally {
      await store.close();
    }
  });

  it("resolves no caller of a batch before the batch's COMMIT", async () => {
    const { store, sessions, keys } = await storeWithSessions("gc_durable", 4);
    // The session whose statement runs last in the batch is locked elsewhere: the others have run, uncommitted.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM gc_durable.sessions WHERE key = $1 FOR UPDATE", [keys.at(-1)]);
      const resolved = new Set<string>();
      const commits = sessions.map((session, i) =>
        store.commitTurn(answerTurn(session, `r${i}`)).then(() => resolved.add(session.key)),
      );
      await vi.waitFor(
        async () => {
          const { rows } = await queryOnce(
            database.url,
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
            [database.name],
          );
          expect(rows[0]?.n).toBe(1);
        },
        { timeout: 5000 },
      );
      expect(resolved.size).toBe(0);
      expect(await committedAnswers("gc_durable", keys)).toEqual([]);
      await locker.query("ROLLBACK");
      await Promise.all(commits);
      expect(resolved.size).toBe(sessions.length);
      expect(await committedAnswers("gc_durable", keys)).toHaveLength(sessions.length);
    } finally {
      await locker.end();
      await store.close();
    }
  });

  it("keeps the other writes of a batch when one of its statements fails, and fails only that caller", async () => {
    const { store, sessions, keys } = await storeWithSessions("gc_failure", 4);
    try {
      const before = store.roundTrips;
      // The first statement of the batch fails on the server (not a bigint); the others ran after it in the batch.
      const outcomes = await Promise.allSettled(
        sessions.map((session, i) =>
          store.commitTurn(answerTurn(session, `r${i}`, i === 0 ? { answersSeq: 1e30 } : {})),
        ),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "fulfilled", "fulfilled", "fulfilled"]);
      expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/bigint/);
      // The batch rolled back and every write of it ran again alone.
      expect(store.roundTrips - before).toBe(1 + sessions.length);
      const written = (await committedAnswers("gc_failure", keys)).map((row) => row.session_key).sort();
      expect(written).toEqual(keys.slice(1).sort());
      expect(await store.getRun("r0")).toBeUndefined();
      expect((await store.getRun("r3"))?.status).toBe("completed");
    } finally {
      await store.close();
    }
  });

  it("batches inbound messages and sent marks of several chats, in the order each chat's calls came", async () => {
    const { store, sessions } = await storeWithSessions("gc_mixed", 3);
    try {
      const inbound = (session: (typeof sessions)[number], n: number) =>
        store.storeInboundMessage({
          event: { channel: "test", accountId: "bot", eventId: `${session.chatId}-${n}` },
          session,
          message: { role: "user", content: `m${n}`, timestamp: 1 },
        });
      const before = store.roundTrips;
      const stored = await Promise.all(sessions.flatMap((session) => [inbound(session, 1), inbound(session, 2)]));
      expect(store.roundTrips - before).toBe(1);
      expect(stored.map((result) => result?.seq)).toEqual([1, 2, 1, 2, 1, 2]);
      const turns = await Promise.all(
        sessions.map((session, i) =>
          store.commitTurn(
            answerTurn(session, `r${i}`, {
              outbox: [{ sessionKey: session.key, kind: "reply", payload: { text: "hi" } }],
              claimOutbox: true,
              answersSeq: 2,
            }),
          ),
        ),
      );
      const marked = store.roundTrips;
      const sent = await Promise.all(turns.map((turn, i) => store.markOutboxSent(turn.outbox[0]?.id ?? 0, [`p${i}`])));
      expect(store.roundTrips - marked).toBe(1);
      expect(sent.map((entry) => entry.status)).toEqual(["sent", "sent", "sent"]);
      expect(await store.listUnansweredSessions()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
