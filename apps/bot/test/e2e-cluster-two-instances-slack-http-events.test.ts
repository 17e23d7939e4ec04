// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import {
  type FakeSlack,
  freePort,
  type RoundRobinBalancer,
  type SlackUser,
  startFakeOpenAI,
  startFakeSlack,
  startRoundRobinBalancer,
} from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { echoEveryMessage, startClusterInstance, waitForShardOwners } from "./support/cluster-instances.js";
import { botAnswersTo, slackPeople } from "./support/slack-dm-people.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let database: ScratchDatabase;
let slack: FakeSlack;
let openai: FakeOpenAI;
let balancer: RoundRobinBalancer;
const bots: BotProcess[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-cluster-slack-http-"));
  database = await createScratchDatabase();
  slack = await startFakeSlack({ mode: "http" });
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  for (const bot of bots) await bot.kill();
  await balancer?.close();
  await slack?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

async function start(name: string, port: number): Promise<BotProcess> {
  const bot = await startClusterInstance({
    dir,
    name,
    openai,
    databaseUrl: database.url,
    channels: [
      "  slack:",
      "    - accountId: main",
      "      botToken: ${E2E_SLACK_BOT_TOKEN}",
      "      signingSecret: ${E2E_SLACK_SIGNING_SECRET}",
      `      port: ${port}`,
      `      slackApiUrl: ${JSON.stringify(slack.apiUrl)}`,
      "      dmPolicy: open",
    ],
    env: { E2E_SLACK_BOT_TOKEN: slack.botToken, E2E_SLACK_SIGNING_SECRET: slack.signingSecret },
  });
  bots.push(bot);
  return bot;
}

describe("two chorus start instances in cluster mode behind one Slack Request URL (HTTP Events)", () => {
  it("verifies the signature on every instance and answers each event once, a retry on the other instance included", async () => {
    echoEveryMessage(openai, 200);
    const ports = [await freePort(), await freePort()];
    balancer = await startRoundRobinBalancer(ports);
    slack.setEventsUrl(`${balancer.url}/slack/events`);
    const [a, b] = [await start("a", ports[0] as number), await start("b", ports[1] as number)];
    await waitForShardOwners(database.url, 2);
    const users = slackPeople(6);
    const answersTo = (user: SlackUser): string[] => botAnswersTo(slack, user);

    // A forged request reaches each instance once (round robin) and each refuses it; nothing is answered.
    const forged = await Promise.all(
      [0, 1].map(() =>
        slack.injectDm({ user: users[0] as SlackUser, text: "forged", signing: { signature: "invalid" } }),
      ),
    );
    expect(forged.map((delivery) => delivery.status)).toEqual([401, 401]);
    expect([...balancer.forwarded.values()]).toEqual([1, 1]);

    const said: string[] = [];
    const expected = (user: SlackUser): string[] => said.map((round) => `echo: ${round} ${user.name}`);
    const allAnswered = (): Promise<void> =>
      vi.waitFor(() => expect(users.map(answersTo)).toEqual(users.map(expected)), { timeout: 30_000, interval: 100 });
    const sendRound = async (round: string): Promise<string[]> => {
      said.push(round);
      const deliveries = await Promise.all(
        users.map((user) => slack.injectDm({ user, text: `${round} ${user.name}` })),
      );
      expect(deliveries.every((delivery) => delivery.ok)).toBe(true);
      await allAnswered();
      return deliveries.map((delivery) => delivery.item.event_id);
    };
    const firstEvents = await sendRound("round 0");
    await sendRound("round 1");
    // Slack retries an event it thinks was not taken (x-slack-retry-num): the balancer sends each retry to the
    // instance after the one that had it, and the event id stored in PostgreSQL keeps it from a second answer.
    const retries = await Promise.all(firstEvents.map((eventId) => slack.redeliver(eventId)));
    expect(retries.every((delivery) => delivery.ok)).toBe(true);
    // A round after the retries: by the time it is answered, a second answer to a retried event would be there.
    await sendRound("round 2");
    expect([...balancer.forwarded.values()].every((count) => count >= 10)).toBe(true);
    const owners = await queryOnce(
      database.url,
      "SELECT count(DISTINCT owner)::int AS n FROM shard_leases WHERE owner IS NOT NULL",
    );
    expect(owners.rows[0]?.n).toBe(2);
    // Every reply left from its session's owner.
    const elsewhere = await queryOnce(
      database.url,
      `SELECT count(*)::int AS n FROM outbox o JOIN shard_leases l ON l.shard = chorus_shard(o.session_key)
        WHERE o.claimed_by IS DISTINCT FROM l.owner`,
    );
    expect(elsewhere.rows[0]?.n).toBe(0);
    for (const bot of [a, b]) {
      bot.child.kill("SIGTERM");
      expect(await bot.exited).toEqual({ code: 0, signal: null });
    }
    expect(users.map(answersTo)).toEqual(users.map(expected));
    for (const output of [a.lines.join("\n"), b.lines.join("\n")]) {
      expect(output).not.toContain(slack.botToken);
      expect(output).not.toContain(slack.signingSecret);
    }
  }, 180_000);
});
