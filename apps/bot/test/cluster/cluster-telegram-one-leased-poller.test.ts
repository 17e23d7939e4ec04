import { createTelegramChannel, type TelegramChannel } from "@chorus/channel-telegram";
import { createScratchDatabase, queryOnce, type ScratchDatabase, TEST_SERVER } from "@chorus/store-postgres/testing";
import { type FakeTelegram, type NetworkGate, startFakeTelegram, startNetworkGate } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ClusterInstance, startClusterInstance } from "./cluster-instance.js";

let database: ScratchDatabase;
let gate: NetworkGate;
let telegram: FakeTelegram;
const instances: ClusterInstance<TelegramChannel>[] = [];

beforeAll(async () => {
  database = await createScratchDatabase();
  gate = await startNetworkGate(`postgres://${TEST_SERVER.host}:${TEST_SERVER.port}`);
  telegram = await startFakeTelegram();
});
afterAll(async () => {
  gate.open();
  for (const one of instances) await one.stop();
  await gate.close();
  await telegram.close();
  await database.drop();
});

async function instance(name: string, port?: number): Promise<ClusterInstance<TelegramChannel>> {
  const one = await startClusterInstance({
    name,
    database: database.name,
    ...(port === undefined ? {} : { port }),
    channel: createTelegramChannel({
      accountId: "tg",
      token: telegram.token,
      apiRoot: telegram.apiRoot,
      longPollSeconds: 1,
    }),
    channelConfig: { channel: "telegram", dmPolicy: "open" },
  });
  instances.push(one);
  return one;
}

const users = Array.from({ length: 4 }, (_, i) => ({ id: 9100 + i, is_bot: false, first_name: `User${i}` }));
const answersTo = (userId: number): string[] =>
  telegram
    .conversation(userId)
    .filter((message) => message.from?.is_bot === true)
    .map((message) => message.text ?? "");

describe("Telegram long polling on a cluster of gateways", () => {
  it("polls from one instance only, and another takes the poller over when the holder is cut off, answering nothing twice", async () => {
    const a = await instance("a", gate.port);
    await vi.waitFor(() => expect(a.channel.polling).toBe(true), { timeout: 5000 });
    const b = await instance("b");
    // b heartbeats alongside a: one unit, a fair share of one each, so a keeps polling and b never starts.
    await vi.waitFor(() => expect((b.store.ownership?.shards.length ?? 0) > 0).toBe(true), { timeout: 5000 });
    expect([a.channel.polling, b.channel.polling]).toEqual([true, false]);
    const { rows } = await queryOnce(database.url, "SELECT unit, owner FROM ingress_leases");
    expect(rows).toHaveLength(1);
    expect(String(rows[0]?.unit)).toMatch(/^telegram:[0-9a-f]{16}$/);
    expect(String(rows[0]?.owner)).toMatch(/^a#/);

    for (const user of users) await telegram.injectDm({ from: user, text: `first from ${user.id}` });
    await vi.waitFor(() => expect(users.map((user) => answersTo(user.id))).toEqual(users.map(() => ["ok"])), {
      timeout: 10_000,
    });

    // Every reply recorded as sent before the cut (a reply in flight at the cut would be resent: Telegram has no
    // idempotent send, see docs/cluster.md).
    await vi.waitFor(
      async () => {
        const { rows: unsent } = await queryOnce(
          database.url,
          "SELECT count(*)::int AS n FROM outbox WHERE status <> 'sent'",
        );
        expect(unsent[0]?.n).toBe(0);
      },
      { timeout: 5000 },
    );

    // a loses PostgreSQL: it stops polling before its lease can expire; b takes the poller once it has.
    gate.shut();
    await vi.waitFor(() => expect([a.channel.polling, b.channel.polling]).toEqual([false, true]), {
      timeout: 10_000,
    });
    // Telegram serves the updates a confirmed again (as to a consumer that died before confirming): stored once by
    // update_id, so not answered again.
    expect(telegram.redeliver(telegram.token, users.length)).toBe(users.length);
    for (const user of users) await telegram.injectDm({ from: user, text: `second from ${user.id}` });
    await vi.waitFor(() => expect(users.map((user) => answersTo(user.id))).toEqual(users.map(() => ["ok", "ok"])), {
      timeout: 15_000,
    });
    await b.running.gateway.idle();
    expect(users.map((user) => answersTo(user.id))).toEqual(users.map(() => ["ok", "ok"]));
    const owner = await queryOnce(database.url, "SELECT owner FROM ingress_leases");
    expect(String(owner.rows[0]?.owner)).toMatch(/^b#/);
  });
});
