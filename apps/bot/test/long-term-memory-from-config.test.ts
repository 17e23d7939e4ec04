import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteMemoryStore } from "@chorus/memory";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { secretsOf } from "../src/config/config-secrets.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { BotRuntime } from "../src/runtime/bot-runtime.js";
import { silentLogger } from "./support/silent-logger.js";
import { WebchatClient } from "./support/webchat-client.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let openai: FakeOpenAI;
let runtime: BotRuntime | undefined;
let client: WebchatClient | undefined;
let database: ScratchDatabase | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-memory-"));
  openai = await startFakeOpenAI();
});
afterEach(async () => {
  await client?.close();
  await runtime?.shutdown();
  await openai.close();
  await database?.drop();
  database = undefined;
  await rm(dir, { recursive: true, force: true });
});

function config(memory: unknown, store?: unknown) {
  const parsed = parseBotConfig({
    dataDir: dir,
    ...(store === undefined ? {} : { store }),
    providers: { openai: { apiKey: "sk-test-000000", baseUrl: openai.url } },
    agents: [{ id: "assistant", model: "openai/gpt-4.1" }],
    channels: { webchat: [{ port: 0 }] },
    ...(memory === undefined ? {} : { memory }),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

/** Starts a bot on `botConfig` with a WebChat client connected to it. */
async function startBot(botConfig: ReturnType<typeof config>): Promise<WebchatClient> {
  runtime = new BotRuntime({ config: botConfig, source: "test", logger: silentLogger(), cwd: dir });
  await runtime.start();
  client = await WebchatClient.connect(runtime.webchatUrl ?? "");
  return client;
}

describe("long-term memory from the bot configuration", () => {
  it("remembers in one turn, recalls before the next turn's first model call, with embeddings from the server", async () => {
    const chat = await startBot(
      config({
        embeddings: { baseUrl: openai.url, model: "text-embedding-3-small", apiKey: "emb-key-123456" },
        // Recall's 50 ms default budget includes the embedding round trip: a busy machine must not turn it into a miss.
        recallBudgetMs: 5_000,
      }),
    );
    openai.enqueue(
      [{ type: "tool_call", name: "remember", args: { fact: "The user's favourite music is jazz", subject: "music" } }],
      [{ type: "text", text: "Noted." }],
      [{ type: "text", text: "Jazz." }],
    );
    chat.send("dm", "I love jazz, remember that");
    await chat.until(() => chat.botTexts("dm").includes("Noted."));
    chat.send("dm", "what music do I like?");
    await chat.until(() => chat.botTexts("dm").includes("Jazz."));

    const chats = openai.requests.filter((request) => request.path === "/v1/chat/completions");
    const lastSystem = JSON.stringify((chats.at(-1)?.body.messages as unknown[] | undefined)?.[0]);
    expect(lastSystem).toContain("remembered-facts");
    expect(lastSystem).toContain("The user's favourite music is jazz");
    const embeddings = openai.requests.filter((request) => request.path === "/v1/embeddings");
    expect(embeddings.length).toBeGreaterThan(0);
    expect(embeddings[0]?.headers.authorization).toBe("Bearer emb-key-123456");

    await runtime?.shutdown();
    runtime = undefined;
    // In the session store's own file: the fact committed with its turn.
    const memory = new SqliteMemoryStore({ path: join(dir, "chorus.db") });
    try {
      const [scope] = await memory.countByScope();
      expect(scope?.scope).toMatch(/^user:webchat:/);
      const facts = (await memory.export(scope?.scope ?? "")).facts;
      expect(facts.map((fact) => fact.text)).toEqual(["The user's favourite music is jazz"]);
    } finally {
      await memory.close();
    }
  });

  it("keeps facts in the PostgreSQL session store's database, where every cluster instance finds them", async () => {
    database = await createScratchDatabase();
    const chat = await startBot(config({}, { kind: "postgres", url: database.url }));
    openai.enqueue(
      [{ type: "tool_call", name: "remember", args: { fact: "The user's favourite tea is sencha" } }],
      [{ type: "text", text: "Noted." }],
    );
    chat.send("dm", "I love sencha, remember that");
    await chat.until(() => chat.botTexts("dm").includes("Noted."));
    await runtime?.shutdown();
    runtime = undefined;

    const { rows } = await queryOnce(database.url, "SELECT scope, text FROM chorus_memory.memory_facts");
    expect(rows).toEqual([
      { scope: expect.stringMatching(/^user:webchat:/), text: "The user's favourite tea is sencha" },
    ]);
  });

  it("runs the extraction pass with its own model once a DM goes quiet, citing the message that stated the fact", async () => {
    const chat = await startBot(config({ extraction: { model: "openai/gpt-4.1-mini", idleMs: 20 } }));
    openai.enqueue(
      [{ type: "text", text: "Enjoy Lisbon!" }],
      [{ type: "text", text: JSON.stringify({ facts: [{ text: "The user moved to Lisbon", sources: ["1"] }] }) }],
    );
    chat.send("dm", "I just moved to Lisbon");
    await chat.until(() => chat.botTexts("dm").includes("Enjoy Lisbon!"));
    const memory = new SqliteMemoryStore({ path: join(dir, "chorus.db") });
    try {
      await vi.waitFor(async () => expect((await memory.countByScope()).length).toBe(1), { timeout: 5000 });
      const [scope] = await memory.countByScope();
      const [fact] = (await memory.export(scope?.scope ?? "")).facts;
      expect(fact).toMatchObject({ text: "The user moved to Lisbon", source: { messageId: "1" } });
    } finally {
      await memory.close();
    }
    const chats = openai.requests.filter((request) => request.path === "/v1/chat/completions");
    expect(chats.map((request) => request.body.model)).toEqual(["gpt-4.1", "gpt-4.1-mini"]);
  });

  it("links one person's accounts across platforms and refuses an account given to two people", () => {
    const people = { alice: ["telegram:123", "discord:456"] };
    expect(config({ people }).memory?.people).toEqual(people);
    const parsed = parseBotConfig({
      dataDir: dir,
      agents: [{ id: "assistant", model: "openai/gpt-4.1" }],
      memory: { people: { alice: ["telegram:123"], bob: ["telegram:123"] } },
    });
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed.ok ? [] : parsed.issues)).toContain("telegram:123 is already alice's account");
  });

  it("is off without a memory section, and its embeddings key counts as a secret", () => {
    expect(config(undefined).memory).toBeUndefined();
    expect(
      secretsOf(config({ embeddings: { baseUrl: "http://127.0.0.1:1/v1", model: "m", apiKey: "emb-secret-1" } })),
    ).toContain("emb-secret-1");
  });
});
