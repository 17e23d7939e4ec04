// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { startFakeOpenAI, startFakeTelegram } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";

type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

/** Never asked for (the test server trusts 127.0.0.1), so it only proves that no log line carries it. */
const DB_PASSWORD = "e2e-db-password-7f3a9c";

let dir: string;
let database: ScratchDatabase;
let telegram: FakeTelegram;
let openai: FakeOpenAI;
let bot: BotProcess | undefined;
let second: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-pg-"));
  database = await createScratchDatabase();
  telegram = await startFakeTelegram();
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  await second?.kill();
  await bot?.kill();
  await telegram?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("chorus start on PostgreSQL as a child process", () => {
  it("answers a Telegram DM with the transcript in Postgres, refuses a second gateway on the database, and exits cleanly", async () => {
    openai.enqueue([{ type: "text", text: "Hello from Chorus on Postgres." }]);
    const configFile = join(dir, "chorus.config.yaml");
    await writeFile(
      configFile,
      [
        `dataDir: ${JSON.stringify(join(dir, "data"))}`,
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
        "store:",
        "  kind: postgres",
        "  url: ${E2E_DATABASE_URL}",
        "logging:",
        "  format: json",
        "shutdownGraceMs: 10000",
        "",
      ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      E2E_OPENAI_KEY: "sk-e2e-test-key-0000000000",
      E2E_TELEGRAM_TOKEN: telegram.token,
      E2E_DATABASE_URL: database.url.replace("postgres@", `postgres:${DB_PASSWORD}@`),
    };
    bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
    const started = await bot.waitForLine(/"msg":"chorus started"/);
    expect(started).toContain(`PostgreSQL 127.0.0.1:5432/${database.name}`);

    await telegram.injectDm({ text: "Hi Chorus, where do you keep this?" });
    const userId = telegram.user.id;
    const answer = "Hello from Chorus on Postgres.";
    await telegram.waitFor(
      (call) =>
        (call.method === "sendMessage" || call.method === "editMessageText") &&
        (call.body as { text?: string } | undefined)?.text === answer,
      15_000,
    );

    // A second gateway on the same database stops before it touches anything; the first one runs on.
    second = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
    expect((await second.exited).code).toBe(1);
    expect(second.lines.join("\n")).toContain("Another Chorus instance is using this database");
    expect(second.lines.join("\n")).toContain("cluster mode is issue #18");
    expect(bot.child.exitCode).toBeNull();

    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    for (const output of [bot.lines.join("\n"), second.lines.join("\n")]) {
      expect(output).not.toContain(DB_PASSWORD);
      expect(output).not.toContain(telegram.token);
    }

    const store = await PostgresSessionStore.open({ url: database.url });
    try {
      const [session] = await store.listSessions({ agentId: "assistant" });
      expect(session?.key).toBe(`assistant:main:telegram:dm:${userId}`);
      const transcript = (await store.readTranscript(session?.key ?? "")).map((entry) => entry.message.role);
      expect(transcript).toEqual(["user", "assistant"]);
      expect((await store.listRuns({ sessionKey: session?.key ?? "" })).map((run) => run.status)).toEqual([
        "completed",
      ]);
      expect(await store.listOutbox({ status: ["pending", "in-flight"] })).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
