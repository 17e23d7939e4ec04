// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { type FakeSlack, type SlackUser, startFakeOpenAI, startFakeSlack } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { echoEveryMessage, startClusterInstance } from "./support/cluster-instances.js";

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
  it("answers every message exactly once, in order per chat, though envelopes alternate between the links", async () => {
    echoEveryMessage(openai, 200);
    const [a, b] = [await start("a"), await start("b")];
    await slack.waitForSocket(undefined, 20_000, 2);
    expect(slack.socketLinks()).toBe(2);
    const users: SlackUser[] = Array.from({ length: 6 }, (_, i) => ({
      id: `U0PERSON0${i}`,
      name: `person${i}`,
      isBot: false,
    }));
    const answersTo = (user: SlackUser): string[] =>
      slack
        .conversation(slack.dmChannel(undefined, user))
        .filter((message) => message.bot_id !== undefined)
        .map((message) => message.text ?? "");
    const expected = (user: SlackUser, texts: readonly string[]): string[] =>
      texts.map((text) => `echo: ${text} from ${user.name}`);
    const said: string[] = [];
    const allAnswered = async (): Promise<void> => {
      await vi.waitFor(() => expect(users.map(answersTo)).toEqual(users.map((user) => expected(user, said))), {
        timeout: 30_000,
        interval: 100,
      });
    };

    // Envelopes went over both links (a link per instance).
    const linksUsed = () => new Set(slack.callsTo("ack").map((call) => call.params.link));
    for (const round of ["round 0", "round 1", "round 2"]) {
      said.push(round);
      const deliveries = await Promise.all(
        users.map((user) => slack.injectDm({ user, text: `${round} from ${user.name}` })),
      );
      expect(deliveries.every((delivery) => delivery.ok)).toBe(true);
      await allAnswered();
    }

    expect(linksUsed().size).toBe(2);

    // An ack lost on the way: Slack sends the envelope again (retry_attempt 1) on the other instance's link. The
    // event id is stored once in PostgreSQL, so the second delivery is dropped, whichever instance owns the session.
    const lost = users[0] as SlackUser;
    slack.loseAcks(1);
    const delivery = await slack.injectDm({ user: lost, text: `ack lost from ${lost.name}` });
    // Settled ok: the retry was acked (the first ack never arrived), over the other instance's link.
    expect(delivery.ok).toBe(true);
    const [lostAck] = slack.callsTo("lost-ack");
    const retryAck = slack.callsTo("ack").find((call) => call.params.envelope_id === lostAck?.params.envelope_id);
    expect(retryAck?.params.link).not.toBe(lostAck?.params.link);
    // Another round after it: by the time it is answered, a second answer to the retried event would be there.
    said.push("round 3");
    await Promise.all(users.map((user) => slack.injectDm({ user, text: `round 3 from ${user.name}` })));
    await vi.waitFor(
      () =>
        expect(users.map(answersTo)).toEqual(
          users.map((user) =>
            user === lost
              ? [
                  ...expected(user, said.slice(0, 3)),
                  `echo: ack lost from ${lost.name}`,
                  ...expected(user, ["round 3"]),
                ]
              : expected(user, said),
          ),
        ),
      { timeout: 30_000, interval: 100 },
    );

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
    for (const bot of [a, b]) {
      bot.child.kill("SIGTERM");
      expect(await bot.exited).toEqual({ code: 0, signal: null });
    }
    for (const output of [a.lines.join("\n"), b.lines.join("\n")]) {
      expect(output).not.toContain(slack.botToken);
      expect(output).not.toContain(slack.appToken);
    }
  }, 180_000);
});
