import { readdir } from "node:fs/promises";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import { describe, expect, it, vi } from "vitest";
import { PostgresSessionStore, SHARD_COUNT } from "../src/index.js";
import { queryOnce } from "../src/testing/index.js";
import {
  type ClusterMember,
  heldShards,
  saidInDm,
  senderOwnedBy,
  sessionKeyOf,
  stopOnce,
} from "./fixtures/cluster-member.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { database, gate, url } = await databaseBehindAGate();

const model = fakeModel();
const config = {
  agents: [{ id: "main", model: model.id }],
  channels: [{ channel: "test", dmPolicy: "open" as const }],
};

/** One gateway instance of the cluster: its own store (pool, leases), its own connection to the same bot account. */
interface Instance extends ClusterMember {
  readonly model: ReturnType<typeof scriptedStreamFn>;
  /** Injects a message from `sender` (event ids unique across instances, as a platform's are). */
  send(sender: string, text: string): Promise<void>;
  stop(): Promise<void>;
}

let events = 0;

async function instance(
  name: string,
  schema: string,
  options: { leaseMs?: number; sweepMs?: number; pollMs?: number; throughGate?: boolean; start?: boolean } = {},
): Promise<Instance> {
  const store = await PostgresSessionStore.open({
    url: url(options.throughGate === true),
    schema,
    connectTimeoutMs: 1000,
    queryTimeoutMs: 2000,
    cluster: { instanceId: name, leaseMs: options.leaseMs ?? 1500, sweepMs: options.sweepMs ?? 1000 },
    onWarning: () => {},
  });
  return startInstance(name, store, options.start !== false, options.pollMs);
}

async function startInstance(
  name: string,
  store: PostgresSessionStore,
  start: boolean,
  pollMs = 200,
): Promise<Instance> {
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const streamFn = scriptedStreamFn(() => "ok");
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs },
  });
  if (start) await gateway.start();
  return {
    name,
    store,
    gateway,
    channel,
    model: streamFn,
    async send(sender, text) {
      const eventId = `evt-${++events}`;
      await channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
      await gateway.idle();
    },
    stop: stopOnce(gateway, store),
  };
}

describe("gateway instances sharing one PostgreSQL database", () => {
  it("answers a DM at its session's owner in 3 round trips: the message, the turn with its run, the reply sent", async () => {
    // Long lease, sweep and outbox poll: no background statement lands between the readings.
    const a = await instance("a", "round_trips", { leaseMs: 120_000, sweepMs: 120_000, pollMs: 120_000 });
    try {
      await a.send("ann", "first"); // the gateway's first DM on the account also reads whether anyone is approved there
      await a.send("ann", "second");
      await vi.waitFor(() => expect(a.channel.transcript("dm-ann")).toEqual(["ok", "ok"]), { timeout: 5000 });
      const before = a.store.roundTrips;
      await a.send("ann", "third");
      await vi.waitFor(() => expect(a.channel.transcript("dm-ann")).toEqual(["ok", "ok", "ok"]), { timeout: 5000 });
      await vi.waitFor(
        async () => {
          const { rows } = await queryOnce(
            database.url,
            "SELECT count(*)::int AS n FROM round_trips.outbox WHERE status <> 'sent'",
          );
          expect(rows[0]?.n).toBe(0);
        },
        { timeout: 5000 },
      );
      expect(a.store.roundTrips - before).toBe(3);
      const runs = await a.store.listRuns({ sessionKey: sessionKeyOf(a.gateway, "ann") });
      expect(runs.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);
    } finally {
      await a.stop();
    }
  });

  it("answers a message taken by the instance that does not own its session once, at the owner", async () => {
    const a = await instance("a", "handoff");
    const b = await instance("b", "handoff");
    try {
      // b joined after a took every shard: a gives b its share at its next beats.
      await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
      expect(heldShards(a) + heldShards(b)).toBe(SHARD_COUNT);
      const ofA = senderOwnedBy(a, "ann");
      const ofB = senderOwnedBy(b, "bob");

      await b.send(ofA, "hello a");
      await a.send(ofB, "hello b");
      await vi.waitFor(
        () => expect([a.channel.transcript(`dm-${ofA}`), b.channel.transcript(`dm-${ofB}`)]).toEqual([["ok"], ["ok"]]),
        {
          timeout: 5000,
        },
      );
      await Promise.all([a.gateway.idle(), b.gateway.idle()]);
      expect(saidInDm([a, b], ofA)).toEqual(["ok"]);
      expect(saidInDm([a, b], ofB)).toEqual(["ok"]);
      expect([a.model.calls.length, b.model.calls.length]).toEqual([1, 1]);
      expect(await a.store.listUnansweredSessions()).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("answers a message whose wake-up never came (the taker died right after storing it) at the owner's sweep", async () => {
    // a sweeps every 200 ms (default here 1 s): the sweep is what answers, so it need not be waited for longer.
    const a = await instance("a", "sweep", { sweepMs: 200 });
    const b = await instance("b", "sweep", { start: false });
    try {
      const ofA = senderOwnedBy(a, "ann");
      // b stores the message as its intake would, and notifies nobody.
      await b.store.storeInboundMessage({
        event: { channel: "test", accountId: "main", eventId: "lost-wake-up" },
        session: {
          key: sessionKeyOf(a.gateway, ofA),
          agentId: "main",
          channel: "test",
          accountId: "main",
          chatId: `dm-${ofA}`,
        },
        message: { role: "user", content: "is anyone there?", timestamp: Date.now() },
      });
      await vi.waitFor(() => expect(a.channel.transcript(`dm-${ofA}`)).toEqual(["ok"]), { timeout: 5000 });
      await a.gateway.idle();
      expect(a.model.calls).toHaveLength(1);
    } finally {
      await a.stop();
      await b.store.close();
    }
  });

  it("takes the sessions of an instance cut off from the database after its lease expires, answering each once", async () => {
    const a = await instance("a", "partition", { throughGate: true });
    const b = await instance("b", "partition");
    try {
      await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
      const ofA = senderOwnedBy(a, "ann");
      gate.shut();
      // b stores it and wakes a, which cannot hear: a's lease runs out and b claims its shards with the message.
      await b.send(ofA, "anyone there?");
      await vi.waitFor(() => expect(b.channel.transcript(`dm-${ofA}`)).toEqual(["ok"]), { timeout: 8000 });
      expect(a.store.ownership?.fenceFor(sessionKeyOf(a.gateway, ofA))).toBeUndefined();

      gate.open();
      // a comes back: it finds its leases gone, and rejoins with a share b gives up.
      await vi.waitFor(() => expect(heldShards(a)).toBeGreaterThan(0), { timeout: 8000 });
      await Promise.all([a.gateway.idle(), b.gateway.idle()]);
      expect(saidInDm([a, b], ofA)).toEqual(["ok"]);
      expect(a.model.calls).toHaveLength(0);
      expect(await b.store.listUnansweredSessions()).toEqual([]);
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  });

  it("hands every session over at once on a graceful stop, without waiting for the lease to expire", async () => {
    // a's lease would last a minute: b answering within seconds shows the leases were released, not expired.
    const a = await instance("a", "graceful", { leaseMs: 60_000 });
    const b = await instance("b", "graceful");
    try {
      expect([heldShards(a), heldShards(b)]).toEqual([SHARD_COUNT, 0]);
      await a.send("ann", "first");
      expect(a.channel.transcript("dm-ann")).toEqual(["ok"]);
      await a.stop();
      const { rows } = await queryOnce(
        database.url,
        "SELECT count(*)::int AS n FROM graceful.shard_leases WHERE owner LIKE 'a#%'",
      );
      expect(rows[0]?.n).toBe(0);

      await b.send("ann", "second");
      await vi.waitFor(() => expect(b.channel.transcript("dm-ann")).toEqual(["ok"]), { timeout: 5000 });
      expect(heldShards(b)).toBe(SHARD_COUNT);
      // b answered from the stored transcript: both messages are in the session, each answered once.
      const key = sessionKeyOf(b.gateway, "ann");
      const said = (await b.store.readTranscript(key)).map((entry) => entry.message.role);
      expect(said).toEqual(["user", "assistant", "user", "assistant"]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("starts two instances at once on an empty database: one migration, the shards split, every message answered once", async () => {
    const [storeA, storeB] = await Promise.all(
      ["a", "b"].map((name) =>
        PostgresSessionStore.open({
          url: database.url,
          schema: "together",
          cluster: { instanceId: name, leaseMs: 1500, sweepMs: 1000 },
          onWarning: () => {},
        }),
      ),
    );
    const [a, b] = await Promise.all([
      startInstance("a", storeA as PostgresSessionStore, false),
      startInstance("b", storeB as PostgresSessionStore, false),
    ]);
    const both = [a as Instance, b as Instance];
    try {
      await Promise.all(both.map((one) => one.gateway.start()));
      await vi.waitFor(() => expect(both.map((one) => heldShards(one) > 0)).toEqual([true, true]), { timeout: 5000 });
      const { rows } = await queryOnce(
        database.url,
        "SELECT count(DISTINCT shard)::int AS shards, count(DISTINCT owner)::int AS owners FROM together.shard_leases WHERE owner IS NOT NULL",
      );
      expect(rows[0]).toEqual({ shards: SHARD_COUNT, owners: 2 });
      const senders = Array.from({ length: 8 }, (_, i) => `user-${i}`);
      await Promise.all(senders.map((sender, i) => both[i % 2]?.send(sender, "hi")));
      await vi.waitFor(
        () => expect(senders.map((sender) => saidInDm(both, sender))).toEqual(senders.map(() => ["ok"])),
        {
          timeout: 5000,
        },
      );
      await Promise.all(both.map((one) => one.gateway.idle()));
      expect(senders.map((sender) => saidInDm(both, sender))).toEqual(senders.map(() => ["ok"]));
      // Each shipped migration applied once, not once per instance.
      const { rows: steps } = await queryOnce(
        database.url,
        "SELECT count(*)::int AS n, count(DISTINCT name)::int AS distinct_names FROM together.chorus_migrations",
      );
      const shipped = (await readdir(new URL("../migrations/", import.meta.url))).filter((f) => f.endsWith(".sql"));
      expect(steps[0]).toEqual({ n: shipped.length, distinct_names: shipped.length });
    } finally {
      await Promise.all(both.map((one) => one.stop()));
    }
  });
});
