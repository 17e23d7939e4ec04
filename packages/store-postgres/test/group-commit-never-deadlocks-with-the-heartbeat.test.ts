import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { heartbeat } from "../src/leases/lease-statements.js";
import { PoolDb } from "../src/query-runner.js";
import { createScratchDatabase } from "../src/testing/index.js";
import { answerTurn, sessionsInLockOrder } from "./fixtures/sessions-in-lock-order.js";

const database = await createScratchDatabase();
afterAll(() => database.drop());

// A batch holds the shard leases of its fenced commits (FOR SHARE) until its COMMIT, and a heartbeat locks every lease
// of its instance: taken in different orders, the two would deadlock, and PostgreSQL would break the tie only after
// deadlock_timeout (1 s), failing one of them. Both take them in shard order.
it("renews leases while batches of fenced commits in many shards hold theirs, with no deadlock", async () => {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema: "beats",
    cluster: { instanceId: "a", leaseMs: 60_000, sweepMs: 60_000 },
    onWarning: () => {},
  });
  const beats = new pg.Pool({ connectionString: database.url, options: "-c search_path=beats", max: 2 });
  try {
    await store.ownership?.start(() => {});
    const owner = store.ownership?.leaseOwner ?? "";
    const sessions = sessionsInLockOrder("beats", 24);
    for (const session of sessions) await store.ensureSession(session);
    let stop = false;
    let renewals = 0;
    // Beats as fast as they go, on two connections, for as long as the batches run.
    const beating = [0, 1].map(async () => {
      const db = new PoolDb(beats, { count: 0 });
      while (!stop) {
        await heartbeat(db, owner, 60_000);
        renewals++;
      }
    });
    const slowest: number[] = [];
    try {
      for (let round = 0; round < 40; round++) {
        const started = performance.now();
        // Each batch in the reverse of lock order as called: the queue orders it.
        await Promise.all(
          [...sessions].reverse().map((session) => {
            const fence = store.ownership?.fenceFor(session.key);
            return store.commitTurn(answerTurn(session, `r${round}-${session.chatId}`, fence ? { fence } : {}));
          }),
        );
        slowest.push(performance.now() - started);
      }
    } finally {
      stop = true;
      await Promise.all(beating);
    }
    expect(renewals).toBeGreaterThan(10);
    // A deadlock would cost a batch deadlock_timeout (1 s) before PostgreSQL broke it.
    expect(Math.max(...slowest)).toBeLessThan(900);
  } finally {
    await beats.end();
    await store.close();
  }
});
