import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { queryOnce, waitForShardsSettled } from "@chorus/store-postgres/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { converse, expectedEchoes, telegramChat } from "./support/cluster-chats.js";
import { TestCluster } from "./support/test-cluster.js";

const MIGRATIONS = fileURLToPath(new URL("../../../packages/store-postgres/migrations/", import.meta.url));

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.create({ leaseMs: 1500, telegram: true });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

describe("two chorus instances started at once on an empty PostgreSQL database", () => {
  it("migrates once, both run, the shards split between them and every message is answered once", async () => {
    // Spawned together, before either has created anything.
    const members = await Promise.all([cluster.spawn("a"), cluster.spawn("b")]);
    await Promise.all(members.map((member) => member.bot.waitForLine(/"msg":"chorus started"/)));

    const files = (await readdir(MIGRATIONS)).filter((file) => file.endsWith(".sql"));
    const { rows: migrations } = await queryOnce(cluster.database.url, "SELECT name FROM chorus_migrations");
    expect(migrations.map((row) => `${row.name}.sql`).sort()).toEqual(files.sort());

    await waitForShardsSettled(cluster.database.url, 2);
    const { rows: shares } = await queryOnce(
      cluster.database.url,
      "SELECT split_part(owner, '#', 1) AS name, count(*)::int AS shards FROM shard_leases GROUP BY 1 ORDER BY 1",
    );
    expect(shares).toEqual([
      { name: "a", shards: 32 },
      { name: "b", shards: 32 },
    ]);

    const { telegram } = cluster;
    if (telegram === undefined) throw new Error("the cluster has Telegram");
    const chats = Array.from({ length: 8 }, (_, i) => telegramChat(telegram, 92_000 + i));
    await Promise.all(chats.map((chat) => converse(chat, 0, 2)));
    await vi.waitFor(() => expect(chats.map((chat) => chat.answers())).toEqual(chats.map((c) => expectedEchoes(c, 2))));
    // Both took webhook posts and both still run.
    expect([...cluster.telegramBalancer.forwarded.values()].every((count) => count > 0)).toBe(true);
    for (const member of members) expect(member.bot.child.exitCode).toBeNull();
  }, 90_000);
});
