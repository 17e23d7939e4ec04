// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { startFakeOpenAI, startFakeTelegram } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";

type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let telegram: FakeTelegram;
let openai: FakeOpenAI;
let bot: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-"));
  telegram = await startFakeTelegram();
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  await bot?.kill();
  await telegram?.close();
  await openai?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("chorus start as a child process", () => {
  it("answers a Telegram DM through the OpenAI model, then exits cleanly on SIGTERM with nothing lost", async () => {
    openai.enqueue([{ type: "text", text: "Hello from the model behind Chorus." }]);
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
    };
    bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
    await bot.waitForLine(/"msg":"chorus started"/);

    await telegram.injectDm({ text: "Hi Chorus, are you there?" });
    const userId = telegram.user.id;
    const answer = "Hello from the model behind Chorus.";
    const reply = await telegram.waitFor(
      (call) =>
        (call.method === "sendMessage" || call.method === "editMessageText") &&
        (call.body as { text?: string } | undefined)?.text === answer,
      15_000,
    );
    expect((reply.body as { chat_id?: unknown }).chat_id).toBe(userId);
    // The model got the user's words through the real OpenAI client, with the configured key.
    expect(JSON.stringify(openai.requests[0]?.body)).toContain("Hi Chorus, are you there?");
    expect(openai.requests[0]?.headers.authorization).toBe("Bearer sk-e2e-test-key-0000000000");

    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    // No secret reached the log.
    expect(bot.lines.join("\n")).not.toContain(telegram.token);
    expect(bot.lines.join("\n")).not.toContain("sk-e2e-test-key-0000000000");

    const store = SqliteSessionStore.open({ path: join(dir, "data", "chorus.db") });
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
  it("on SIGHUP refuses a broken config file, logs why, and keeps answering with the old one", async () => {
    openai.enqueue([{ type: "text", text: "Still here." }]);
    const configFile = join(dir, "hup", "chorus.config.yaml");
    await mkdir(join(dir, "hup"), { recursive: true });
    const good = [
      `dataDir: ${JSON.stringify(join(dir, "hup", "data"))}`,
      `providers: { openai: { apiKey: sk-hup-000000, baseUrl: ${JSON.stringify(openai.url)} } }`,
      "agents: [{ id: assistant, model: openai/gpt-4.1 }]",
      `channels: { telegram: [{ token: ${JSON.stringify(telegram.token)}, apiRoot: ${JSON.stringify(telegram.apiRoot)}, dmPolicy: open }] }`,
      "logging: { format: json }",
      "",
    ].join("\n");
    await writeFile(configFile, good);
    bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    await bot.waitForLine(/"msg":"chorus started"/);

    await writeFile(configFile, good.replace("model: openai/gpt-4.1", "model: openai/"));
    bot.child.kill("SIGHUP");
    const refused = await bot.waitForLine(/config change refused/);
    expect(refused).toContain("agents[0].model");

    await telegram.injectDm({ text: "are you still there?" });
    await telegram.waitFor(
      (call) => call.method === "sendMessage" && (call.body as { text?: string } | undefined)?.text === "Still here.",
      15_000,
    );
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
