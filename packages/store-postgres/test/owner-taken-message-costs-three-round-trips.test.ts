import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import type { Pool, PoolClient } from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, queryOnce } from "../src/testing/index.js";

const database = await createScratchDatabase();
afterAll(() => database.drop());

const model = fakeModel();
const config = {
  agents: [{ id: "main", model: model.id }],
  channels: [{ channel: "test", dmPolicy: "open" as const }],
};

/** Every statement sent on the store's pooled connections (by the pool's `query` or inside a transaction), in order. */
function recordStatements(pool: Pool): string[] {
  const sent: string[] = [];
  const text = (query: unknown): string => {
    const sql = typeof query === "string" ? query : ((query as { text?: string }).text ?? String(query));
    return sql.replace(/\s+/g, " ").trim();
  };
  const wrapped = new WeakSet<PoolClient>();
  pool.on("acquire", (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      sent.push(text(args[0]));
      return query(...args);
    };
  });
  return sent;
}

async function oneGateway(schema: string, cluster: boolean) {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema,
    // Long lease and sweep: no background statement lands between the readings.
    ...(cluster ? { cluster: { instanceId: "a", leaseMs: 120_000, sweepMs: 120_000 } } : {}),
    onWarning: () => {},
  });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(() => "ok"),
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 120_000 },
    // Its sweep at start would race the first message's statements (a background statement, not the message's).
    housekeeping: false,
  });
  await gateway.start();
  const sent = recordStatements(store.pool);
  let events = 0;
  return {
    store,
    /** Sends `text` from `sender` and returns the statements it cost, once its reply is marked sent. */
    async message(sender: string, text: string): Promise<{ roundTrips: number; statements: string[] }> {
      const said = channel.transcript(`dm-${sender}`).length;
      const from = sent.length;
      const before = store.roundTrips;
      const eventId = `evt-${++events}`;
      await channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
      await gateway.idle();
      await vi.waitFor(() => expect(channel.transcript(`dm-${sender}`)).toHaveLength(said + 1), { timeout: 5000 });
      await vi.waitFor(
        async () => {
          const { rows } = await queryOnce(
            database.url,
            `SELECT count(*)::int AS n FROM ${schema}.outbox WHERE status <> 'sent'`,
          );
          expect(rows[0]?.n).toBe(0);
        },
        { timeout: 5000 },
      );
      await gateway.idle();
      return { roundTrips: store.roundTrips - before, statements: sent.slice(from) };
    },
    /** Sends one message from each sender at once; the round trips they cost together, once all are marked sent. */
    async together(senders: readonly string[], text: string): Promise<number> {
      const said = senders.map((sender) => channel.transcript(`dm-${sender}`).length);
      const before = store.roundTrips;
      await Promise.all(
        senders.map((sender) => {
          const eventId = `evt-${++events}`;
          return channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
        }),
      );
      await gateway.idle();
      await vi.waitFor(
        async () => {
          for (const [i, sender] of senders.entries()) {
            expect(channel.transcript(`dm-${sender}`)).toHaveLength((said[i] ?? 0) + 1);
          }
          const { rows } = await queryOnce(
            database.url,
            `SELECT count(*)::int AS n FROM ${schema}.outbox WHERE status <> 'sent'`,
          );
          expect(rows[0]?.n).toBe(0);
        },
        { timeout: 5000 },
      );
      await gateway.idle();
      return store.roundTrips - before;
    },
    async stop() {
      await gateway.stop(0);
      await store.close();
    },
  };
}

/** What a statement is, in its first three words (e.g. `UPDATE outbox SET`, `WITH event AS`). */
const kind = (sql: string): string => sql.split(" ").slice(0, 3).join(" ");

describe.each([
  ["one gateway", false],
  ["one cluster instance", true],
])("a message taken by its session's owner on PostgreSQL (%s)", (_, cluster) => {
  it("costs 3 round trips, a new chat's first message included: the message, the turn with its run, the sent mark", async () => {
    const one = await oneGateway(cluster ? "costs_cluster" : "costs_single", cluster);
    try {
      // The gateway's first DM on a channel account also reads whether anyone was approved there (once per account;
      // in a cluster, again once that answer is 5 s old): no chat pays a read of its own sender's approval after it.
      const firstOnTheAccount = await one.message("bob", "hi");
      const first = await one.message("ann", "hello");
      const later = await one.message("ann", "again");
      console.log(
        JSON.stringify(
          { cluster, firstOnTheAccount, first, later },
          (key, value) => (key === "statements" ? (value as string[]).map((sql) => sql.slice(0, 100)) : value),
          2,
        ),
      );
      for (const taken of [firstOnTheAccount, first, later]) expect(taken.statements).toHaveLength(taken.roundTrips);
      expect(firstOnTheAccount.statements[0]).toMatch(/^SELECT 1 FROM paired_senders .* LIMIT 1$/);
      expect(firstOnTheAccount.roundTrips).toBe(4);
      // The inbound message (with its session and event id), the turn (its run, transcript and reply), the sent mark.
      for (const taken of [first, later]) {
        expect(taken.statements.map(kind)).toEqual(["WITH event AS", "WITH locked_session AS", "UPDATE outbox SET"]);
        expect(taken.roundTrips).toBe(3);
      }
      // The title came with the session (no update of its own), from the first message's text.
      expect((await one.store.listSessions()).map((session) => session.title).sort()).toEqual(["hello", "hi"]);
    } finally {
      await one.stop();
    }
  });

  it("costs at most 3 round trips per message in existing chats when several chats write at once (group commit)", async () => {
    const one = await oneGateway(cluster ? "together_cluster" : "together_single", cluster);
    try {
      const senders = ["ann", "bob", "cat", "dan", "eve", "fay"];
      for (const sender of senders) await one.message(sender, "hello");
      // A later message in each existing chat, all at once: their writes may share batches, never cost more.
      const roundTrips = await one.together(senders, "again");
      console.log(JSON.stringify({ cluster, messages: senders.length, roundTrips }));
      expect(roundTrips).toBeLessThanOrEqual(3 * senders.length);
      const third = await one.together(senders, "and again");
      expect(third).toBeLessThanOrEqual(3 * senders.length);
    } finally {
      await one.stop();
    }
  });
});
