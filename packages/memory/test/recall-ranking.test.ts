import { type FakeLlmServer, hashedWordEmbedding, startFakeOpenAI } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createOpenAiEmbedder,
  type Embedder,
  recallFacts,
  reciprocalRankFusion,
  SqliteMemoryStore,
  storeFactEmbeddings,
} from "../src/index.js";

const SCOPE = "user:telegram:42";
const DAY = 86_400_000;
const NOW = 400 * DAY;
const source = { sessionKey: "agent:main:telegram:dm:42", at: 0 };

let store: SqliteMemoryStore | undefined;
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await store?.close();
  await server?.close();
  store = undefined;
  server = undefined;
});

function openStore(clock: { now: number }): SqliteMemoryStore {
  store = new SqliteMemoryStore({ path: ":memory:", now: () => clock.now });
  return store;
}

/** The fake's default hashed words, plus one synonym the words alone cannot find. */
const synonymAware = (text: string) => hashedWordEmbedding(text.replace(/\bautomobile\b/gi, "car"));

describe("recall ranks facts", () => {
  it("by full text alone when no embedder is configured", async () => {
    const memory = openStore({ now: NOW });
    await memory.remember({ scope: SCOPE, text: "Alice's daughter is called Inês", source });
    await memory.remember({ scope: SCOPE, text: "Alice works as a nurse in Porto", source });
    const result = await recallFacts(memory, [SCOPE], "What is her daughter's name?", { now: () => NOW });
    expect(result.kind).toBe("recalled");
    if (result.kind !== "recalled") return;
    expect(result.facts.map((hit) => hit.fact.text)).toEqual(["Alice's daughter is called Inês"]);
  });

  it("with vector similarity from an OpenAI-compatible server, finding a fact that shares no word with the query", async () => {
    server = await startFakeOpenAI({ embed: synonymAware });
    const embedder = createOpenAiEmbedder({ baseUrl: server.url, model: "fake-embedding" });
    const memory = openStore({ now: NOW });
    const facts = [
      await memory.remember({ scope: SCOPE, text: "Alice owns a red automobile", source }),
      await memory.remember({ scope: SCOPE, text: "Alice's favourite band is Radiohead", source }),
    ].map((result) => result.fact);
    await storeFactEmbeddings(memory, embedder, facts);
    const query = "which car?";
    const bm25 = await recallFacts(memory, [SCOPE], query, { now: () => NOW });
    const hybrid = await recallFacts(memory, [SCOPE], query, { embedder, now: () => NOW, budgetMs: 5_000 });
    expect(bm25).toMatchObject({ kind: "recalled", facts: [] });
    expect(hybrid.kind === "recalled" && hybrid.facts.map((hit) => hit.fact.text)).toEqual([
      "Alice owns a red automobile",
    ]);
  });

  it("prefers the more recent of two equally relevant facts", async () => {
    const clock = { now: 10 * DAY };
    const memory = openStore(clock);
    await memory.remember({ scope: SCOPE, text: "Alice is training for the Lisbon marathon", source });
    clock.now = 300 * DAY;
    await memory.remember({ scope: SCOPE, text: "Alice is training for the Berlin marathon", source });
    const result = await recallFacts(memory, [SCOPE], "marathon training", { now: () => 301 * DAY });
    expect(result.kind === "recalled" && result.facts[0]?.fact.text).toBe("Alice is training for the Berlin marathon");
  });

  it("cuts near-duplicates so k facts say k different things", async () => {
    const memory = openStore({ now: NOW });
    const embedder: Embedder = async (texts) => texts.map((text) => Float32Array.from(hashedWordEmbedding(text)));
    const facts = [];
    for (const text of [
      "Alice loves hiking in the mountains",
      "Alice loves hiking in the mountains on Sundays",
      "Alice loves hiking in the mountains with her dog",
      "Alice went hiking in Peru last year",
    ]) {
      facts.push((await memory.remember({ scope: SCOPE, text, source })).fact);
    }
    await storeFactEmbeddings(memory, embedder, facts);
    const result = await recallFacts(memory, [SCOPE], "hiking mountains", { embedder, k: 2, now: () => NOW });
    const texts = result.kind === "recalled" ? result.facts.map((hit) => hit.fact.text) : [];
    expect(texts).toHaveLength(2);
    expect(texts).toContain("Alice went hiking in Peru last year");
  });

  it("fuses ranked lists by reciprocal rank", () => {
    expect(
      reciprocalRankFusion([
        ["a", "b"],
        ["b", "c"],
      ]).map((entry) => entry.id),
    ).toEqual(["b", "a", "c"]);
  });
});

describe("recall stays within its budget and never throws", () => {
  it("answers skipped when the embedder is slower than the budget, and aborts its request", async () => {
    const memory = openStore({ now: NOW });
    await memory.remember({ scope: SCOPE, text: "Alice likes jazz", source });
    let aborted = false;
    const stuck: Embedder = (_texts, signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener("abort", () => {
          aborted = true;
          reject(signal.reason);
        });
      });
    const result = await recallFacts(memory, [SCOPE], "jazz", { embedder: stuck, budgetMs: 20 });
    expect(result).toMatchObject({ kind: "skipped", reason: "timeout" });
    expect(aborted).toBe(true);
  });

  it("falls back to full text when the embedder fails", async () => {
    const memory = openStore({ now: NOW });
    await memory.remember({ scope: SCOPE, text: "Alice likes jazz", source });
    const broken: Embedder = () => Promise.reject(new Error("connection refused"));
    const result = await recallFacts(memory, [SCOPE], "jazz", { embedder: broken, budgetMs: 5_000 });
    expect(result.kind === "recalled" && result.facts.map((hit) => hit.fact.text)).toEqual(["Alice likes jazz"]);
  });

  it("recalls nothing, without an error, for a query of punctuation", async () => {
    const memory = openStore({ now: NOW });
    await memory.remember({ scope: SCOPE, text: "Alice likes jazz", source });
    for (const query of ['"', "*)(", "?!", "NEAR(", ""]) {
      expect(await recallFacts(memory, [SCOPE], query, { budgetMs: 5_000 })).toMatchObject({
        kind: "recalled",
        facts: [],
      });
    }
  });
});
