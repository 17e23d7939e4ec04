import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sessionShard } from "@chorus/store-postgres";
import { createScratchDatabase, queryOnce, TEST_SERVER } from "@chorus/store-postgres/testing";
import { startRoundRobinBalancer } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArguments } from "../src/cli-flags.js";
import { routeToOwners, telegramDmSessionKey } from "../src/cluster/owner-routing.js";
import { serverTransactions } from "../src/cluster/postgres-round-trips.js";
import { clusterOptions } from "../src/suites/cluster.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An upstream that answers every request with its name and the path it got. */
async function upstream(name: string): Promise<number> {
  const server = createServer((req, res) => res.end(`${name} ${req.url}`));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const port = await upstream("gone");
  const server = servers.pop() as Server;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the cluster bench's pieces", () => {
  it("balances webhook posts round robin, skipping an instance that refuses, and sees instances added later", async () => {
    const ports = [await upstream("a"), await closedPort()];
    const balancer = await startRoundRobinBalancer(ports);
    try {
      const post = async () => (await fetch(`${balancer.url}/telegram`, { method: "POST", body: "{}" })).text();
      expect([await post(), await post()]).toEqual(["a /telegram", "a /telegram"]);
      ports.push(await upstream("c"));
      const answers = [await post(), await post(), await post()];
      expect(answers).toContain("c /telegram");
      expect(answers).not.toContain("gone /telegram");
    } finally {
      await balancer.close();
    }
  });

  it("routes a post to the upstream its route picks from the body, and round robin again without one", async () => {
    const [a, b] = [await upstream("a"), await upstream("b")];
    const balancer = await startRoundRobinBalancer([a, b]);
    try {
      const post = async (chat: number) =>
        (
          await fetch(`${balancer.url}/telegram`, {
            method: "POST",
            body: JSON.stringify({ message: { chat: { id: chat } } }),
          })
        ).text();
      balancer.routeBy((body) =>
        (JSON.parse(body.toString()) as { message: { chat: { id: number } } }).message.chat.id === 1 ? a : b,
      );
      expect([await post(1), await post(1), await post(2), await post(1)]).toEqual([
        "a /telegram",
        "a /telegram",
        "b /telegram",
        "a /telegram",
      ]);
      balancer.routeBy(undefined);
      expect(new Set([await post(1), await post(1)])).toEqual(new Set(["a /telegram", "b /telegram"]));
    } finally {
      await balancer.close();
    }
  });

  it("routes each Telegram DM to the instance holding its session's shard", async () => {
    const database = await createScratchDatabase();
    try {
      await queryOnce(
        database.url,
        `CREATE TABLE shard_leases (shard int PRIMARY KEY, owner text);
         INSERT INTO shard_leases SELECT s, CASE WHEN s < 32 THEN 'i1#aa' ELSE 'i2#bb' END FROM generate_series(0, 63) s`,
      );
      const route = await routeToOwners(database.url, [
        { name: "i1", port: 1001 },
        { name: "i2", port: 1002 },
      ]);
      for (const user of [60_001, 60_002, 60_003, 60_004]) {
        const shard = sessionShard(telegramDmSessionKey(user));
        const body = Buffer.from(JSON.stringify({ update_id: 1, message: { chat: { id: user } } }));
        expect(route(body)).toBe(shard < 32 ? 1001 : 1002);
      }
      expect(route(Buffer.from("{}"))).toBeUndefined();
      expect(route(Buffer.from("not json"))).toBeUndefined();
    } finally {
      await database.drop();
    }
  });

  it("counts the statements a database ran from the server's statistics", async () => {
    const database = await createScratchDatabase();
    const admin = `postgres://${TEST_SERVER.user}@${TEST_SERVER.host}:${TEST_SERVER.port}/test`;
    try {
      const before = await serverTransactions(admin, database.name);
      for (let i = 0; i < 5; i++) await queryOnce(database.url, "SELECT 1");
      // Backends publish their counters when they end (or at most once a second): each queryOnce ends its own.
      await expect
        .poll(async () => (await serverTransactions(admin, database.name)) - before, { timeout: 5000 })
        .toBeGreaterThanOrEqual(5);
    } finally {
      await database.drop();
    }
  });

  it("reads its sizes from the command line and refuses nonsense", () => {
    const flags = (...args: string[]) => parseCliArguments(args, ["cluster"]).flags;
    expect(clusterOptions(flags("cluster", "--kills", "12", "--lease-ms=800"))).toMatchObject({
      kills: 12,
      leaseMs: 800,
      chats: 20,
      maxInstances: 3,
    });
    expect(() => clusterOptions(flags("--lease-ms", "10"))).toThrow("--lease-ms must be a whole number ≥ 300");
  });
});
