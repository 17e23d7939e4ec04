// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { type FakeSlack, type SlackUser, startFakeOpenAI, startFakeSlack } from "@chorus/testkit";
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
const bots: BotProcess[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-cluster-slack-"));
  database = await createScratchDatabase();
  // As Slack: an event left unacked is sent again on another of the app's links.
  slack = await startFakeSlack({ mode: "socket", eventAckTimeoutMs: 1_000 });
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  for (const bot of bots) await bot.kill();
  await slack?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

async function start(name: string): Promise<BotProcess> {
  const bot = await startClusterInstance({
    dir,
    name,
    openai,
    databaseUrl: database.url,
    channels: [
      "  slack:",
      "    - accountId: main",
      "      botToken: ${E2E_SLACK_BOT_TOKEN}",
      "      appToken: ${E2E_SLACK_APP_TOKEN}",
      `      slackApiUrl: ${JSON.stringify(slack.apiUrl)}`,
      "      dmPolicy: open",
    ],
    env: { E2E_SLACK_BOT_TOKEN: slack.botToken, E2E_SLACK_APP_TOKEN: slack.appToken },
  });
  bots.push(bot);
  return bot;
}

describe("two chorus start instances in cluster mode, each holding a Slack Socket Mode link", () => {
  it("answers every message exactly once, in order per chat, envelopes alternating between the links, one killed", async () => {
    echoEveryMessage(openai, 200);
    const [a, b] = [await start("a"), await start("b")];
    await waitForShardOwners(database.url, 2);
    await slack.waitForSocket(undefined, 20_000, 2);
    expect(slack.socketLinks()).toBe(2);
    const users = slackPeople(6);
    const answersTo = (user: SlackUser): string[] => botAnswersTo(slack, user);
    // What each person said, in order; every message is answered with its echo, once, in that order.
    const said = new Map<SlackUser, string[]>(users.map((user) => [user, []]));
    const say = (user: SlackUser, text: string) => {
      said.get(user)?.push(text);
      return slack.injectDm({ user, text });
    };
    const allAnswered = async (): Promise<void> => {
      const expected = users.map((user) => (said.get(user) ?? []).map((text) => `echo: ${text}`));
      await vi.waitFor(() => expect(users.map(answersTo)).toEqual(expected), { timeout: 30_000, interval: 100 });
    };
    const sendRound = async (round: string): Promise<void> => {
      const deliveries = await Promise.all(users.map((user) => say(user, `${round} from ${user.name}`)));
      expect(deliveries.every((delivery) => delivery.ok)).toBe(true);
      await allAnswered();
    };

    for (const round of ["round 0", "round 1", "round 2"]) await sendRound(round);
    // Envelopes went over both links (a link per instance).
    expect(new Set(slack.callsTo("ack").map((call) => call.params.link)).size).toBe(2);

    // An ack lost on the way: Slack sends the envelope again (retry_attempt 1) on the other instance's link. The
    // event id is stored once in PostgreSQL, so the second delivery is dropped, whichever instance owns the session.
    const lost = users[0] as SlackUser;
    slack.loseAcks(1);
    const delivery = await say(lost, `ack lost from ${lost.name}`);
    // Settled ok: the retry was acked (the first ack never arrived), over the other instance's link.
    expect(delivery.ok).toBe(true);
    const [lostAck] = slack.callsTo("lost-ack");
    const retryAck = slack.callsTo("ack").find((call) => call.params.envelope_id === lostAck?.params.envelope_id);
    expect(retryAck?.params.link).not.toBe(lostAck?.params.link);
    // Another round after it: by the time it is answered, a second answer to the retried event would be there.
    await sendRound("round 3");

    // Both instances held sessions, so both sent replies; nothing is left unsent.
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
    const unsent = await queryOnce(database.url, "SELECT count(*)::int AS n FROM outbox WHERE status <> 'sent'");
    expect(unsent.rows[0]?.n).toBe(0);

    // kill -9 of one instance: its link closes and Slack sends every envelope over the other one, which takes the
    // dead instance's sessions over once their leases run out and answers every message once.
    a.child.kill("SIGKILL");
    await a.exited;
    await vi.waitFor(() => expect(slack.socketLinks()).toBe(1), { timeout: 10_000, interval: 50 });
    await sendRound("round 4");
    await sendRound("round 5");
    b.child.kill("SIGTERM");
    expect(await b.exited).toEqual({ code: 0, signal: null });
    for (const output of [a.lines.join("\n"), b.lines.join("\n")]) {
      expect(output).not.toContain(slack.botToken);
      expect(output).not.toContain(slack.appToken);
    }
  }, 180_000);
});
