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

let dir: string;
let database: ScratchDatabase;
let telegram: FakeTelegram;
let openai: FakeOpenAI;
let bot: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-pg-kill-"));
  database = await createScratchDatabase();
  telegram = await startFakeTelegram();
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  await bot?.kill();
  await telegram?.close();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("chorus start on PostgreSQL, killed mid-turn and started again", () => {
  it("tells the chat about the message a killed turn left unanswered, from what Postgres kept", async () => {
    // The model never answers the first request: the process is killed while it waits.
    openai.enqueue([{ type: "stall", ms: 30_000 }]);
    const configFile = join(dir, "chorus.config.yaml");
    await writeFile(
      configFile,
      [
        `dataDir: ${JSON.stringify(join(dir, "data"))}`,
        `providers: { openai: { apiKey: sk-kill-000000, baseUrl: ${JSON.stringify(openai.url)} } }`,
        "agents: [{ id: assistant, model: openai/gpt-4.1 }]",
        `channels: { telegram: [{ token: ${JSON.stringify(telegram.token)}, apiRoot: ${JSON.stringify(telegram.apiRoot)}, dmPolicy: open }] }`,
        "logging: { format: json }",
        "",
      ].join("\n"),
    );
    // No store section: DATABASE_URL in the environment picks PostgreSQL.
    const env = { PATH: process.env.PATH, HOME: dir, DATABASE_URL: database.url };
    bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
    await bot.waitForLine(/"msg":"chorus started"/);
    await telegram.injectDm({ text: "Plan my week, please." });
    await expect.poll(() => openai.requests.length, { timeout: 15_000 }).toBe(1);
    bot.child.kill("SIGKILL");
    expect((await bot.exited).signal).toBe("SIGKILL");

    bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
    await bot.waitForLine(/"msg":"chorus started"/);
    const notice = await telegram.waitFor(
      (call) =>
        call.method === "sendMessage" &&
        ((call.body as { text?: string } | undefined)?.text ?? "").startsWith("I was restarted before I could answer"),
      15_000,
    );
    expect((notice.body as { chat_id?: unknown }).chat_id).toBe(telegram.user.id);
    bot.child.kill("SIGTERM");
    expect(await bot.exited).toEqual({ code: 0, signal: null });

    const store = await PostgresSessionStore.open({ url: database.url });
    try {
      const [session] = await store.listSessions({ agentId: "assistant" });
      expect((await store.readTranscript(session?.key ?? "")).map((entry) => entry.message.role)).toEqual(["user"]);
      // Killed in its first model call: the turn's run is written by its first commit, so none was stored.
      expect(await store.listRuns({ sessionKey: session?.key ?? "" })).toEqual([]);
      expect(await store.listOutbox({ status: ["pending", "in-flight"] })).toEqual([]);
      expect(await store.listUnansweredSessions()).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
