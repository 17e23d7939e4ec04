import { queryOnce, waitForShardsSettled } from "@chorus/store-postgres/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ClusterChat, converse, expectedEchoes, slackChat, telegramChat } from "./support/cluster-chats.js";
import { TestCluster } from "./support/test-cluster.js";

const NAMES = ["a", "b", "c"];
const THINK_MS = 1500;

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await TestCluster.create({ leaseMs: 1500, telegram: true, slack: true });
}, 300_000);

afterAll(async () => {
  await cluster?.close();
});

describe("a rolling restart of three chorus instances under load", () => {
  it("loses no message and answers none twice while each instance in turn gets SIGTERM and starts again", async () => {
    await Promise.all(NAMES.map((name) => cluster.start(name)));
    await waitForShardsSettled(cluster.database.url, 3);
    const { telegram, slack } = cluster;
    if (telegram === undefined || slack === undefined) throw new Error("the cluster has both platforms");
    const chats: ClusterChat[] = [
      ...Array.from({ length: 6 }, (_, i) => telegramChat(telegram, 93_000 + i)),
      ...Array.from({ length: 6 }, (_, i) => slackChat(slack, `U0ROLL${i}`)),
    ];

    // Every chat keeps talking until the restarts are over: each message a moment after the last was answered (the
    // gateway's per-session rate cap, 30 a minute on each instance, would drop a faster talker's messages).
    let rolling = true;
    // A chat's pause ends early once the restarts are over: the load is then done, nothing is left to wait for.
    let endRolling = (): void => {};
    const rolled = new Promise<void>((resolve) => {
      endRolling = resolve;
    });
    const sent = new Map<ClusterChat, number>();
    const load = Promise.all(
      chats.map(async (chat) => {
        let n = 0;
        while (rolling || n < 2) {
          await converse(chat, n, n + 1);
          n += 1;
          await Promise.race([new Promise((resolve) => setTimeout(resolve, THINK_MS)), rolled]);
        }
        sent.set(chat, n);
      }),
    );
    // Restarts begin once every chat has had an answer (every instance is serving).
    await vi.waitFor(() => expect(chats.every((chat) => chat.answers().length > 0)).toBe(true), { timeout: 20_000 });
    const restarts: string[] = [];
    try {
      for (const name of NAMES) {
        // SIGTERM drains: running turns finish, leases are released at once; the others take the sessions over.
        expect(await cluster.stop(name)).toEqual({ code: 0, signal: null });
        await waitForShardsSettled(cluster.database.url, 2);
        await cluster.start(name);
        await waitForShardsSettled(cluster.database.url, 3);
        restarts.push(name);
      }
    } finally {
      rolling = false;
      endRolling();
    }
    await load;
    expect(restarts).toEqual(NAMES);

    // Exactly once each, in order, and no resend: a graceful stop leaves no send of unknown outcome.
    expect(chats.map((chat) => chat.answers())).toEqual(chats.map((chat) => expectedEchoes(chat, sent.get(chat) ?? 0)));
    const left = await queryOnce(
      cluster.database.url,
      `SELECT (SELECT count(*)::int FROM outbox WHERE status <> 'sent') AS unsent,
              (SELECT count(*)::int FROM sessions WHERE last_inbound_seq > answered_seq) AS unanswered`,
    );
    expect(left.rows[0]).toEqual({ unsent: 0, unanswered: 0 });
  }, 120_000);
});
