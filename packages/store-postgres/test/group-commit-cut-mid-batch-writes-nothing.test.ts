import { isSessionStoreError } from "@chorus/store";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { queryOnce } from "../src/testing/index.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";
import { answerTurn, sessionsInLockOrder } from "./fixtures/sessions-in-lock-order.js";

const { database, gate, url } = await databaseBehindAGate();

/** The backend of this database waiting for a lock (the batch, stopped at its last statement), if any. */
async function waitingBackend(): Promise<number | undefined> {
  const { rows } = await queryOnce(
    database.url,
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
    [database.name],
  );
  return rows[0]?.pid as number | undefined;
}

it("fails every caller of a batch cut off mid-way with io, writes none of it, and works once back", async () => {
  const store = await PostgresSessionStore.open({
    url: url(true),
    schema: "cut",
    connectTimeoutMs: 1000,
    queryTimeoutMs: 5000,
    onWarning: () => {},
  });
  const sessions = sessionsInLockOrder("cut", 4);
  const keys = sessions.map((session) => session.key);
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  try {
    for (const session of sessions) await store.ensureSession(session);
    // The batch's last statement waits for this lock: the three before it have run on the server, uncommitted.
    await locker.query("BEGIN");
    await locker.query("SELECT 1 FROM cut.sessions WHERE key = $1 FOR UPDATE", [keys.at(-1)]);
    const outcomes = Promise.allSettled(sessions.map((session, i) => store.commitTurn(answerTurn(session, `r${i}`))));
    let backend: number | undefined;
    await vi.waitFor(
      async () => {
        backend = await waitingBackend();
        expect(backend).toBeDefined();
      },
      { timeout: 5000 },
    );
    // The network goes, and the server's side of the connection with it.
    gate.shut();
    await queryOnce(database.url, "SELECT pg_terminate_backend($1)", [backend]);
    const settled = await outcomes;
    expect(settled.map((outcome) => outcome.status)).toEqual(sessions.map(() => "rejected"));
    for (const outcome of settled) {
      const error = (outcome as PromiseRejectedResult).reason;
      expect(isSessionStoreError(error, "io")).toBe(true);
      expect((error as Error).message).toContain("Cannot reach PostgreSQL");
    }
    await locker.query("ROLLBACK");
    // Nothing of the batch: no answer, no run, the sessions as they were.
    const written = await queryOnce(
      database.url,
      "SELECT count(*)::int AS n FROM cut.transcript_messages WHERE session_key = ANY($1)",
      [keys],
    );
    expect(written.rows[0]?.n).toBe(0);
    const runs = await queryOnce(database.url, "SELECT count(*)::int AS n FROM cut.runs");
    expect(runs.rows[0]?.n).toBe(0);

    // Back: the same writes go through (in a batch again) on fresh connections.
    gate.open();
    const again = await Promise.all(sessions.map((session, i) => store.commitTurn(answerTurn(session, `r${i}`))));
    expect(again.map((result) => result.firstSeq)).toEqual(sessions.map(() => 1));
  } finally {
    gate.open();
    await locker.end().catch(() => {});
    await store.close();
  }
});
