// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import {
  freePort,
  type RoundRobinBalancer,
  startFakeOpenAI,
  startFakeTelegram,
  startRoundRobinBalancer,
} from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { lastUserText } from "./support/test-cluster.js";

type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let database: ScratchDatabase;
let telegram: FakeTelegram;
let openai: FakeOpenAI;
let balancer: RoundRobinBalancer;
const bots: BotProcess[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-cluster-"));
  database = await createScratchDatabase();
  telegram = await startFakeTelegram();
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  for (const bot of bots) await bot.kill();
  await balancer?.close();
  await telegram?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("two chorus start instances in cluster mode behind one Telegram webhook", () => {
  it("answers every message exactly once, in order per chat, when one instance is killed and the other stops", async () => {
    const ports = [await freePort(), await freePort()];
    balancer = await startRoundRobinBalancer(ports);
    // Every model call echoes the message it answers: an answer names its message. The first call for a "slow"
    // message hangs (the instance running it is killed meanwhile).
    let stalled = false;
    for (let i = 0; i < 200; i++) {
      openai.enqueue((request) => {
        const text = lastUserText(request);
        if (text.startsWith("slow") && !stalled) {
          stalled = true;
          return [{ type: "stall", ms: 60_000 }];
        }
        return [{ type: "text", text: `echo: ${text}` }];
      });
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      E2E_OPENAI_KEY: "sk-e2e-test-key-0000000000",
      E2E_TELEGRAM_TOKEN: telegram.token,
      E2E_DATABASE_URL: database.url,
    };
    const start = async (name: string, port: number): Promise<BotProcess> => {
      const configFile = join(dir, `${name}.yaml`);
      await writeFile(
        configFile,
        [
          `instanceId: ${name}`,
          `dataDir: ${JSON.stringify(join(dir, name))}`,
          "providers:",
          "  openai:",
          "    apiKey: ${E2E_OPENAI_KEY}",
          `    baseUrl: ${JSON.stringify(openai.url)}`,
          "agents:",
          "  - id: assistant",
          "    model: openai/gpt-4.1",
          "channels:",
          "  telegram:",
          "    - accountId: main",
          "      token: ${E2E_TELEGRAM_TOKEN}",
          `      apiRoot: ${JSON.stringify(telegram.apiRoot)}`,
          "      dmPolicy: open",
          "      mode: webhook",
          "      webhook:",
          "        secretToken: cluster-e2e-secret",
          `        port: ${port}`,
          `        publicUrl: ${JSON.stringify(`${balancer.url}/telegram`)}`,
          "store:",
          "  kind: postgres",
          "  url: ${E2E_DATABASE_URL}",
          "  cluster: true",
          "  leaseMs: 1500",
          "logging:",
          "  format: json",
          "shutdownGraceMs: 10000",
          "",
        ].join("\n"),
      );
      const bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
      bots.push(bot);
      const started = await bot.waitForLine(/"msg":"chorus started"/);
      expect(started).toContain(`cluster instance ${name}`);
      return bot;
    };
    const a = await start("a", ports[0] as number);
    const b = await start("b", ports[1] as number);

    const users = Array.from({ length: 6 }, (_, i) => ({ id: 7000 + i, is_bot: false, first_name: `User${i}` }));
    const answersIn = (userId: number): string[] =>
      telegram
        .conversation(userId)
        .filter((message) => message.from?.is_bot === true)
        .map((message) => message.text ?? "");
    let slowUser: number | undefined;
    const expected = (userId: number, rounds: number): string[] => {
      const answers = Array.from({ length: rounds }, (_, round) => `echo: round ${round} from ${userId}`);
      if (userId === slowUser && rounds >= 3) answers.splice(2, 0, `echo: slow from ${userId}`);
      return answers;
    };
    const sendRound = async (round: number): Promise<void> => {
      await Promise.all(users.map((user) => telegram.injectDm({ from: user, text: `round ${round} from ${user.id}` })));
    };
    const allAnswered = async (rounds: number): Promise<void> => {
      await vi.waitFor(
        () => expect(users.map((user) => answersIn(user.id))).toEqual(users.map((user) => expected(user.id, rounds))),
        { timeout: 20_000, interval: 100 },
      );
    };

    // Both instances take webhook posts; each message is answered once, by its session's owner.
    await sendRound(0);
    await allAnswered(1);
    await sendRound(1);
    await allAnswered(2);

    // kill -9 while a is in a turn (its model call hangs, before the turn's first commit, which would write its run):
    // a's leases run out; b claims its shards and answers the message a could not, once.
    const { rows: owned } = await queryOnce(
      database.url,
      `SELECT u AS id FROM unnest($1::bigint[]) u JOIN shard_leases l
         ON l.shard = chorus_shard('assistant:main:telegram:dm:' || u) WHERE l.owner LIKE 'a#%' LIMIT 1`,
      [users.map((user) => user.id)],
    );
    slowUser = Number(owned[0]?.id);
    const slow = users.find((user) => user.id === slowUser);
    if (slow === undefined) throw new Error("instance a owns none of the test's sessions");
    void telegram.injectDm({ from: slow, text: `slow from ${slowUser}` });
    await vi.waitFor(() => expect(stalled).toBe(true), { timeout: 10_000, interval: 50 });
    a.child.kill("SIGKILL");
    await a.exited;
    await vi.waitFor(() => expect(answersIn(slowUser ?? 0)).toContain(`echo: slow from ${slowUser}`), {
      timeout: 20_000,
      interval: 100,
    });
    const takeover = b.lines.filter((line) => line.includes('"msg":"took sessions over"')).at(-1) ?? "";
    expect(takeover).toContain('"interruptedRuns":0');
    await sendRound(2);
    await allAnswered(3);
    // The killed turn left no run (none was written before its first commit); every answered turn's run completed.
    const runs = await queryOnce(database.url, "SELECT count(*)::int AS n FROM runs WHERE status <> 'completed'");
    expect(runs.rows[0]?.n).toBe(0);

    // A graceful stop releases every lease at once.
    b.child.kill("SIGTERM");
    expect(await b.exited).toEqual({ code: 0, signal: null });
    const { rows } = await queryOnce(
      database.url,
      "SELECT count(*)::int AS held FROM shard_leases WHERE owner IS NOT NULL",
    );
    expect(rows[0]?.held).toBe(0);
    // Nothing doubled, nothing left behind.
    expect(users.map((user) => answersIn(user.id))).toEqual(users.map((user) => expected(user.id, 3)));
    const unsent = await queryOnce(database.url, "SELECT count(*)::int AS n FROM outbox WHERE status <> 'sent'");
    expect(unsent.rows[0]?.n).toBe(0);
    for (const output of [a.lines.join("\n"), b.lines.join("\n")]) expect(output).not.toContain(telegram.token);
  }, 90_000);
});
