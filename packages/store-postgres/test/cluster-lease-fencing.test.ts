import { assistantText, userMessage } from "@chorus/core/testing";
import { isSessionStoreError, type OwnershipEvent } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore, SHARD_COUNT, sessionShard } from "../src/index.js";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "../src/testing/index.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

const session = { key: "main:bot:test:dm:ann", agentId: "main", channel: "test", accountId: "bot", chatId: "ann" };
const hello = userMessage("hello");
const answer = assistantText("hi");

async function clusterStore(
  schema: string,
  instanceId: string,
  leaseMs: number,
  unknownOutcomeGraceMs = 0,
): Promise<PostgresSessionStore> {
  return PostgresSessionStore.open({
    url: database.url,
    schema,
    cluster: { instanceId, leaseMs, sweepMs: 60_000, unknownOutcomeGraceMs },
    onWarning: () => {},
  });
}

/** What a long pause of an instance (GC, a partition) looks like to the others: its leases and heartbeat ran out. */
async function pause(schema: string, instanceId: string): Promise<void> {
  await queryOnce(database.url, `UPDATE ${schema}.shard_leases SET expires_at = 0 WHERE owner LIKE $1`, [
    `${instanceId}#%`,
  ]);
  await queryOnce(database.url, `UPDATE ${schema}.cluster_instances SET heartbeat_at = 0 WHERE instance_id LIKE $1`, [
    `${instanceId}#%`,
  ]);
}

async function started(store: PostgresSessionStore): Promise<OwnershipEvent[]> {
  const events: OwnershipEvent[] = [];
  await store.ownership?.start((event) => events.push(event));
  return events;
}

describe("session ownership by shard lease, fenced by the database", () => {
  it("gives the same shard for a key in JavaScript and in the database, a sub-agent's session its root's", async () => {
    const store = await clusterStore("shards", "a", 60_000);
    try {
      const roots = Array.from({ length: 50 }, (_, i) => `main:bot:test:dm:user-${i}-é`);
      // Sub-agent sessions (nested too) and a root key that only looks like one (an agent named "agent").
      const children = roots.slice(0, 10).map((root, i) => `agent:helper:sub:1:run_${i}:${root}`);
      const grandchildren = children.map((child, i) => `agent:helper:sub:2:run_g${i}:${child}`);
      const keys = [...roots, ...children, ...grandchildren, "agent:bot:sub:dm:x"];
      const { rows } = await queryOnce(
        database.url,
        "SELECT shards.chorus_shard(k) AS shard FROM unnest($1::text[]) k",
        [keys],
      );
      expect(rows.map((row) => row.shard)).toEqual(keys.map(sessionShard));
      expect(new Set(keys.map(sessionShard)).size).toBeGreaterThan(20);
      expect(keys.every((key) => sessionShard(key) < SHARD_COUNT)).toBe(true);
      // A sub-agent's session falls into its root's shard: its runs live where the root's turns run.
      expect(grandchildren.map(sessionShard)).toEqual(roots.slice(0, 10).map(sessionShard));
      expect(children.map(sessionShard)).toEqual(roots.slice(0, 10).map(sessionShard));
    } finally {
      await store.close();
    }
  });

  it("refuses the commit of an instance whose lease was taken over, and the taker finds what it left", async () => {
    const schema = "fenced";
    // Long leases: no heartbeat runs during the test; the expiry below stands in for a long pause of instance a.
    const a = await clusterStore(schema, "a", 60_000);
    const b = await clusterStore(schema, "b", 60_000);
    try {
      await started(a);
      expect(a.ownership?.shards).toHaveLength(SHARD_COUNT);
      await a.storeInboundMessage({
        event: { channel: "test", accountId: "bot", eventId: "e1" },
        session,
        message: hello,
      });
      await a.startRun({ id: "run-a", sessionKey: session.key, agentId: "main" });
      const fence = a.ownership?.fenceFor(session.key);
      expect(fence).toBeDefined();
      // A first step of the turn commits under the lease.
      await a.commitTurn({ sessionKey: session.key, messages: [answer], ...(fence ? { fence } : {}) });

      await pause(schema, "a");
      const gained = await started(b);
      expect(b.ownership?.shards).toHaveLength(SHARD_COUNT);
      expect(gained[0]).toMatchObject({
        type: "gained",
        interruptedRuns: [{ id: "run-a", status: "interrupted" }],
        unanswered: [{ session: { key: session.key }, answeredSeq: 0, lastInboundSeq: 1 }],
      });

      // Instance a still believes it owns the session (it was paused); the database refuses its write.
      const refused = await a
        .commitTurn({
          sessionKey: session.key,
          messages: [answer],
          outbox: [{ sessionKey: session.key, kind: "reply", payload: { text: "late" } }],
          answersSeq: 1,
          ...(fence ? { fence } : {}),
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isSessionStoreError(refused, "fenced")).toBe(true);
      expect((refused as Error).message).toContain("taken over by another instance");
      expect((await b.readTranscript(session.key)).map((entry) => entry.seq)).toEqual([1, 2]);
      expect(await b.listOutbox()).toEqual([]);

      // The new owner's commit, under its own epoch, goes through.
      const own = b.ownership?.fenceFor(session.key);
      expect(own?.epoch).toBe((fence?.epoch ?? 0) + 1);
      await b.commitTurn({
        sessionKey: session.key,
        messages: [answer],
        answersSeq: 1,
        ...(own ? { fence: own } : {}),
      });
      expect(await b.listUnansweredSessions()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses a turn's first commit (which writes its run), a run start and a compaction under a lost lease", async () => {
    const schema = "fenced_starts";
    const a = await clusterStore(schema, "a", 60_000);
    const b = await clusterStore(schema, "b", 60_000);
    const refusal = (write: Promise<unknown>) =>
      write.then(
        () => undefined,
        (error: unknown) => error,
      );
    try {
      await started(a);
      await a.storeInboundMessage({
        event: { channel: "test", accountId: "bot", eventId: "e1" },
        session,
        message: hello,
      });
      const fence = a.ownership?.fenceFor(session.key);
      if (fence === undefined) throw new Error("instance a should own the session");
      // Under the lease: the first commit writes the run, a compaction restarts the transcript, a run starts.
      const first = await a.commitTurn({
        sessionKey: session.key,
        messages: [answer],
        run: { id: "run-1", start: { agentId: "main" } },
        fence,
      });
      expect(first.run).toMatchObject({ id: "run-1", status: "running" });
      await a.commitTurn({ sessionKey: session.key, messages: [hello, answer], startsTranscript: true, fence });
      expect((await a.readTranscript(session.key)).map((entry) => entry.seq)).toEqual([3, 4]);
      await a.startRun({ id: "run-2", sessionKey: session.key, agentId: "main", fence });

      await pause(schema, "a");
      await started(b);
      const turn = await refusal(
        a.commitTurn({
          sessionKey: session.key,
          messages: [answer],
          run: { id: "run-3", start: { agentId: "main" } },
          fence,
        }),
      );
      const compaction = await refusal(
        a.commitTurn({ sessionKey: session.key, messages: [answer], startsTranscript: true, fence }),
      );
      const start = await refusal(a.startRun({ id: "run-4", sessionKey: session.key, agentId: "main", fence }));
      for (const error of [turn, compaction, start]) expect(isSessionStoreError(error, "fenced")).toBe(true);
      // Nothing of them was written: no run, the transcript as the compaction under the lease left it.
      expect(await b.getRun("run-3")).toBeUndefined();
      expect(await b.getRun("run-4")).toBeUndefined();
      expect((await b.readTranscript(session.key)).map((entry) => entry.seq)).toEqual([3, 4]);
      expect((await b.getSession(session.key))?.lastSeq).toBe(4);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("gives a joining instance its share without the shard of a turn under way here", async () => {
    const schema = "busy_rebalance";
    // A session in the highest shard: the one a rebalance would give up first.
    const busyKey =
      Array.from({ length: 2000 }, (_, i) => `main:bot:test:dm:busy-${i}`).find(
        (key) => sessionShard(key) === SHARD_COUNT - 1,
      ) ?? "";
    const a = await clusterStore(schema, "a", 900);
    const b = await clusterStore(schema, "b", 900);
    try {
      await a.ownership?.start(
        () => {},
        () => [busyKey],
      );
      expect(a.ownership?.shards).toHaveLength(SHARD_COUNT);
      await started(b);
      await vi.waitFor(() => expect(a.ownership?.shards).toHaveLength(SHARD_COUNT / 2), { timeout: 10_000 });
      expect(a.ownership?.fenceFor(busyKey)).toBeDefined();
      expect(b.ownership?.fenceFor(busyKey)).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("claims outbox entries only for the sessions it owns, and requeues in-flight ones on a takeover", async () => {
    const schema = "outbox_owner";
    const a = await clusterStore(schema, "a", 60_000);
    const b = await clusterStore(schema, "b", 60_000);
    try {
      await started(a);
      await started(b); // every shard is a's: b holds none
      expect(b.ownership?.shards).toEqual([]);
      await a.ensureSession(session);
      const reply = { sessionKey: session.key, kind: "reply" as const, payload: { text: "hi" } };
      await a.enqueueOutbox([reply, reply]);
      expect(await b.claimDueOutbox(10)).toEqual([]);
      const [first] = await a.claimDueOutbox(1);
      expect(first?.status).toBe("in-flight");

      await b.close(); // (it held nothing; its heartbeat row goes, so c's fair share is every shard)
      await pause(schema, "a");
      const c = await clusterStore(schema, "c", 60_000);
      try {
        const [gained] = await started(c);
        expect(gained).toMatchObject({ type: "gained", requeuedOutbox: [{ id: first?.id, status: "pending" }] });
        const entry = await c.getOutboxEntry(first?.id ?? 0);
        expect(entry?.lastError).toContain("outcome unknown");
        expect((await c.claimDueOutbox(10)).map((claimed) => claimed.id)).toHaveLength(2);
        // a's send of its claim finishes late: it may not mark c's claim of the same entry.
        const late = await a.markOutboxSent(first?.id ?? 0, ["late"]).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isSessionStoreError(late, "invalid-state")).toBe(true);
        expect((late as Error).message).toContain("claimed by another instance");
        expect((await c.markOutboxSent(first?.id ?? 0, ["sent-by-c"])).status).toBe("sent");
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("lets the instance that was sending a requeued reply still record it sent, until the new owner's grace is over", async () => {
    const schema = "outbox_grace";
    const a = await clusterStore(schema, "a", 60_000);
    try {
      await started(a);
      await a.ensureSession(session);
      const reply = { sessionKey: session.key, kind: "reply" as const, payload: { text: "hi" } };
      await a.enqueueOutbox([reply, reply]);
      const [first] = await a.claimDueOutbox(1);

      await pause(schema, "a"); // a is cut off from the database, its send under way
      const c = await clusterStore(schema, "c", 60_000, 30_000);
      try {
        const [gained] = await started(c);
        const requeued = gained?.type === "gained" ? gained.requeuedOutbox : [];
        expect(requeued.map((entry) => entry.id)).toEqual([first?.id]);
        expect(requeued[0]?.nextAttemptAt).toBeGreaterThan(Date.now() + 20_000);
        // Not due yet: the new owner's poll leaves it (the second reply is the dispatcher's to hold back behind it).
        expect((await c.claimDueOutbox(10)).map((claimed) => claimed.id)).not.toContain(first?.id);
        // a is back: its send reached the platform, and it records so — nobody sends it again.
        expect((await a.markOutboxSent(first?.id ?? 0, ["sent-by-a"])).status).toBe("sent");
        expect((await c.getOutboxEntry(first?.id ?? 0))?.platformMessageIds).toEqual(["sent-by-a"]);
        expect(await c.claimOutboxEntry(first?.id ?? 0)).toBeUndefined();
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
    }
  });

  it("stops starting turns while it cannot renew, before its lease can expire", async () => {
    const schema = "self_fencing";
    const a = await clusterStore(schema, "a", 1500);
    try {
      await started(a);
      expect(a.ownership?.fenceFor(session.key)).toBeDefined();
      // Another connection holds every lease row: a's heartbeats wait behind it and renew nothing.
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query("BEGIN");
        await client.query(`SELECT * FROM ${schema}.shard_leases FOR UPDATE`);
        await vi.waitFor(() => expect(a.ownership?.fenceFor(session.key)).toBeUndefined(), {
          timeout: 5000,
          interval: 20,
        });
        const { rows } = await client.query(
          `SELECT min(expires_at) - ${schema}.chorus_now_ms() AS left_ms FROM ${schema}.shard_leases`,
        );
        // Self-fenced while the lease, on the database's clock, still had time left: nobody else could hold it yet.
        expect(Number(rows[0]?.left_ms)).toBeGreaterThan(0);
      } finally {
        await client.query("ROLLBACK");
        await client.end();
      }
      // Renewed again once the rows are free: the same epoch, turns start again.
      await vi.waitFor(() => expect(a.ownership?.fenceFor(session.key)).toBeDefined(), { timeout: 5000, interval: 20 });
    } finally {
      await a.close();
    }
  });
});
