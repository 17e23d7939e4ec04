import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { BotRuntime } from "../src/runtime/bot-runtime.js";
import { silentLogger } from "./support/silent-logger.js";
import { WebchatClient } from "./support/webchat-client.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let openai: FakeOpenAI;
let runtime: BotRuntime | undefined;
let client: WebchatClient | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-shutdown-"));
  openai = await startFakeOpenAI();
});
afterEach(async () => {
  await client?.close();
  await runtime?.shutdown();
  await openai.close();
  await rm(dir, { recursive: true, force: true });
});

async function start(shutdownGraceMs: number): Promise<BotRuntime> {
  const parsed = parseBotConfig({
    dataDir: dir,
    providers: { openai: { apiKey: "sk-test-000000", baseUrl: openai.url } },
    agents: [{ id: "assistant", model: "openai/gpt-4.1" }],
    channels: { webchat: [{ port: 0 }] },
    shutdownGraceMs,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  runtime = new BotRuntime({ config: parsed.config, source: "test", logger: silentLogger(), cwd: dir });
  await runtime.start();
  client = await WebchatClient.connect(runtime.webchatUrl ?? "");
  return runtime;
}

async function storedState(): Promise<{ roles: string[]; runs: string[]; unsent: number }> {
  const store = SqliteSessionStore.open({ path: join(dir, "chorus.db") });
  try {
    const [session] = await store.listSessions();
    const key = session?.key ?? "";
    return {
      roles: (await store.readTranscript(key)).map((entry) => entry.message.role),
      runs: (await store.listRuns({ sessionKey: key })).map((run) => run.status),
      unsent: (await store.listOutbox({ status: ["pending", "in-flight"] })).length,
    };
  } finally {
    await store.close();
  }
}

describe("graceful shutdown", () => {
  it("stops intake, lets the running turn finish and deliver, then closes with nothing lost", async () => {
    openai.enqueue([
      { type: "text", text: "Working on it" },
      { type: "stall", ms: 300 },
      { type: "text", text: " and done." },
    ]);
    const bot = await start(10_000);
    client?.send("dm", "a question");
    await client?.until(() => (client?.botTexts("dm").length ?? 0) > 0); // the answer has started streaming
    const stopping = bot.shutdown();
    client?.send("dm", "one more thing");
    await stopping;
    expect(client?.botTexts("dm")).toEqual(["Working on it and done."]);
    expect(client?.frames).toContainEqual({ type: "error", message: "the bot is shutting down" });
    expect(await storedState()).toEqual({ roles: ["user", "assistant"], runs: ["completed"], unsent: 0 });
  });

  it("aborts a turn that outlives the deadline and persists what happened", async () => {
    openai.enqueue([
      { type: "text", text: "Thinking" },
      { type: "stall", ms: 60_000 },
      { type: "text", text: " never." },
    ]);
    const bot = await start(100);
    client?.send("dm", "a long question");
    await client?.until(() => (client?.botTexts("dm").length ?? 0) > 0);
    await bot.shutdown();
    const state = await storedState();
    expect(state.roles[0]).toBe("user"); // the question was stored before the model was called
    expect(state.runs).toHaveLength(1);
    expect(state.runs[0]).not.toBe("running");
    expect(state.runs[0]).not.toBe("completed");
  });
});
