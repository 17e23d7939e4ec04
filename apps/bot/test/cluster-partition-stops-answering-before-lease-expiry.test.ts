import { queryOnce, waitForShardsSettled } from "@chorus/store-postgres/testing";
import { type NetworkGate, type RecordedLlmRequest, startNetworkGate } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { converse, expectedEchoes, telegramChat } from "./support/cluster-chats.js";
import { lastUserText, TestCluster } from "./support/test-cluster.js";

const LEASE_MS = 2000;
/** The longest the model keeps the cut-off instance's turn waiting; the test ends the stall once p is back. */
const STALL_MS = 60_000;

let cluster: TestCluster;
let gate: NetworkGate;

beforeAll(async () => {
  cluster = await TestCluster.create({ leaseMs: LEASE_MS, telegram: true });
  gate = await startNetworkGate("http://127.0.0.1:5432");
}, 300_000);

afterAll(async () => {
  await cluster?.close();
  await gate?.close();
});

describe("a chorus instance cut off from PostgreSQL", () => {
  it("starts nothing more, the other instance takes its sessions over, and its late commit is refused by the epoch", async () => {
    const { database, telegram } = cluster;
    if (telegram === undefined) throw new Error("the cluster has Telegram");
    await cluster.start("a");
    // p reaches PostgreSQL only through the gate.
    const p = await cluster.start("p", `postgres://postgres@127.0.0.1:${gate.port}/${database.name}`);
    await waitForShardsSettled(database.url, 2);

    // A chat whose session p owns.
    const candidates = Array.from({ length: 64 }, (_, i) => telegramChat(telegram, 94_000 + i));
    const { rows } = await queryOnce(
      database.url,
      `SELECT k FROM unnest($1::text[]) k JOIN shard_leases l ON l.shard = chorus_shard(k)
        WHERE l.owner LIKE 'p#%' LIMIT 1`,
      [candidates.map((chat) => chat.sessionKey)],
    );
    const chat = candidates.find((candidate) => candidate.sessionKey === rows[0]?.k);
    if (chat === undefined) throw new Error("p owns none of 64 sessions");

    await converse(chat, 0, 1);
    // p's turn for m1 hangs at the model; meanwhile p is cut off.
    cluster.model.enqueue((request) => [
      { type: "stall", ms: STALL_MS },
      { type: "text", text: `echo: ${lastUserText(request)}`, chunks: 1 },
    ]);
    await chat.send(`${chat.label} m1`);
    await vi.waitFor(() => expect(cluster.model.pending()).toBe(0), { timeout: 10_000, interval: 20 });
    expect(lastUserText(cluster.model.requests.at(-1) as RecordedLlmRequest)).toBe(`${chat.label} m1`);
    // The balancer stops sending p webhook posts (as a health check would) and p loses PostgreSQL.
    cluster.telegramPorts.splice(cluster.telegramPorts.indexOf(p.telegramPort), 1);
    gate.shut();

    // a takes p's shards once their leases expire and answers m1 itself, then m2. p's turn has no run row yet (a
    // turn's run is stored by its first commit, which p never reached): a finds m1 stored and unanswered.
    await vi.waitFor(() => expect(chat.answers()).toEqual(expectedEchoes(chat, 2)), { timeout: 15_000 });
    const takeover = cluster.members
      .get("a")
      ?.bot.lines.find((line) => line.includes('"msg":"took sessions over"') && /"unanswered":[1-9]/.test(line));
    expect(takeover).toBeDefined();
    await converse(chat, 2, 3);

    // p comes back while its turn still waits; when the model answers, p's commit carries the old epoch and the
    // database refuses it: nothing of it is written, no second answer reaches the chat.
    gate.open();
    cluster.model.endStalls();
    const refused = await p.bot.waitForLine(/was taken over by another instance/);
    expect(refused).toContain(chat.sessionKey);
    // p stopped renewing while cut off, and rejoins with its share once back.
    expect(p.bot.lines.some((line) => line.includes("Could not renew this instance's leases"))).toBe(true);
    await waitForShardsSettled(database.url, 2);
    expect(chat.answers()).toEqual(expectedEchoes(chat, 3));
    const outbox = await queryOnce(
      database.url,
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'sent')::int AS sent FROM outbox WHERE session_key = $1",
      [chat.sessionKey],
    );
    expect(outbox.rows[0]).toEqual({ n: 3, sent: 3 });
  }, 90_000);
});
