import { afterEach, describe, expect, it } from "vitest";
import { type FactSource, MemoryError, type MemoryStore } from "../../src/index.js";

/** A fresh store for one test, a hand-moved clock, and a probe of the store's own search index. */
export interface MemoryStoreUnderTest {
  readonly store: MemoryStore;
  readonly clock: { now: number };
  /** How many index entries still match `word` — read from the index itself, not through `search`. */
  indexMatches(word: string): Promise<number>;
  cleanup(): Promise<void>;
}

const source = (messageId: string, at = 1_000): FactSource => ({
  sessionKey: "agent:main:telegram:dm:42",
  messageId,
  at,
});
const ALICE = "user:telegram:42";
const BOB = "user:telegram:77";

/** One suite, every `MemoryStore`: what a user of memory relies on, whatever the database. */
export function describeMemoryStoreConformance(name: string, open: () => Promise<MemoryStoreUnderTest>): void {
  describe(`${name} (MemoryStore conformance)`, () => {
    let current: MemoryStoreUnderTest | undefined;
    const fresh = async () => {
      current = await open();
      return current;
    };
    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    it("keeps a fact with its source and lists it", async () => {
      const { store } = await fresh();
      const result = await store.remember({
        scope: ALICE,
        text: "Alice is allergic to peanuts.",
        source: source("m1"),
      });
      expect(result.kind).toBe("added");
      const page = await store.list(ALICE);
      expect(page.total).toBe(1);
      expect(page.facts[0]).toMatchObject({
        id: result.fact.id,
        text: "Alice is allergic to peanuts.",
        source: { sessionKey: "agent:main:telegram:dm:42", messageId: "m1", at: 1_000 },
        history: [],
      });
    });

    it("merges a duplicate (case, spacing and final punctuation aside) into the fact already kept", async () => {
      const { store, clock } = await fresh();
      const first = await store.remember({ scope: ALICE, text: "Likes green tea", source: source("m1") });
      clock.now += 5_000;
      const again = await store.remember({ scope: ALICE, text: "  likes   GREEN tea. ", source: source("m2") });
      expect(again.kind).toBe("merged");
      expect(again.fact.id).toBe(first.fact.id);
      const page = await store.list(ALICE);
      expect(page.total).toBe(1);
      expect(page.facts[0]?.updatedAt).toBe(clock.now);
    });

    it("replaces a contradicting fact on the same subject and keeps the old wording in its history", async () => {
      const { store, clock } = await fresh();
      const first = await store.remember({
        scope: ALICE,
        subject: "Home city",
        text: "Alice lives in Lisbon",
        source: source("m1"),
      });
      clock.now += 1_000;
      const moved = await store.remember({
        scope: ALICE,
        subject: "home  city",
        text: "Alice lives in Porto",
        source: source("m9", 2_000),
      });
      expect(moved.kind).toBe("replaced");
      expect(moved.fact.id).toBe(first.fact.id);
      expect(moved.fact.history).toEqual([
        { text: "Alice lives in Lisbon", source: source("m1"), replacedAt: clock.now },
      ]);
      expect((await store.search([ALICE], "Lisbon")).length).toBe(0);
      expect((await store.search([ALICE], "Porto")).map((hit) => hit.fact.text)).toEqual(["Alice lives in Porto"]);
      expect(await current?.indexMatches("lisbon")).toBe(0);
    });

    it("ranks the best full-text match first and stems words", async () => {
      const { store } = await fresh();
      await store.remember({ scope: ALICE, text: "Bob plays the guitar on weekends", source: source("m1") });
      await store.remember({ scope: ALICE, text: "Alice's sister is a doctor", source: source("m2") });
      await store.remember({ scope: ALICE, text: "Alice runs marathons and runs every morning", source: source("m3") });
      const hits = await store.search([ALICE], "how often does she go running?");
      expect(hits[0]?.fact.text).toBe("Alice runs marathons and runs every morning");
      expect(hits.every((hit) => Number.isFinite(hit.score))).toBe(true);
    });

    it("never shows one scope's facts to another scope", async () => {
      const { store } = await fresh();
      const secretPlan = await store.remember({
        scope: ALICE,
        text: "Alice plans a surprise party",
        source: source("m1"),
      });
      await store.remember({ scope: BOB, text: "Bob hates parties", source: source("m2") });
      expect((await store.search([BOB], "surprise party")).map((hit) => hit.fact.scope)).toEqual([BOB]);
      expect(await store.get(BOB, secretPlan.fact.id)).toBeUndefined();
      expect(await store.forget(BOB, secretPlan.fact.id)).toEqual([]);
      expect(await store.forget(BOB, "surprise")).toEqual([]);
      expect((await store.list(ALICE)).total).toBe(1);
      expect((await store.export(BOB)).facts.map((fact) => fact.text)).toEqual(["Bob hates parties"]);
    });

    it("forgets by id and by text, and the words leave the search index", async () => {
      const { store } = await fresh();
      const byId = await store.remember({ scope: ALICE, text: "Alice's locker code is zebra", source: source("m1") });
      await store.remember({ scope: ALICE, text: "Alice drives a blue Volvo", source: source("m2") });
      await store.remember({ scope: ALICE, text: "Alice's cat is called Miso", source: source("m3") });
      expect((await store.forget(ALICE, byId.fact.id)).map((fact) => fact.id)).toEqual([byId.fact.id]);
      expect((await store.forget(ALICE, "VOLVO")).map((fact) => fact.text)).toEqual(["Alice drives a blue Volvo"]);
      expect(await store.search([ALICE], "zebra volvo")).toEqual([]);
      expect(await current?.indexMatches("zebra")).toBe(0);
      expect(await current?.indexMatches("volvo")).toBe(0);
      expect(await current?.indexMatches("miso")).toBe(1);
      expect((await store.list(ALICE)).facts.map((fact) => fact.text)).toEqual(["Alice's cat is called Miso"]);
    });

    it("forgets by whole words only, in order, and says first what would go", async () => {
      const { store } = await fresh();
      const texts = [
        "Alice feeds the cat at seven",
        "Alice is scattering seeds in the garden",
        "Alice’s CAT is called Miso",
        "Alice likes green tea",
        "Alice likes tea that is green",
      ];
      for (const [i, text] of texts.entries()) await store.remember({ scope: ALICE, text, source: source(`w${i}`) });
      const sorted = (facts: readonly { text: string }[]) => facts.map((fact) => fact.text).sort();
      expect(await store.forget(ALICE, "s")).toEqual([]); // "Alice's" is one word
      expect(await store.forget(ALICE, "sc")).toEqual([]);
      expect(await store.forget(ALICE, "!!")).toEqual([]);
      expect(sorted(await store.forgettable(ALICE, "cat"))).toEqual([
        "Alice feeds the cat at seven",
        "Alice’s CAT is called Miso",
      ]);
      expect(sorted(await store.forgettable(ALICE, "alice's cat"))).toEqual(["Alice’s CAT is called Miso"]);
      expect((await store.list(ALICE)).total).toBe(5); // forgettable deletes nothing
      expect(sorted(await store.forget(ALICE, "Green tea."))).toEqual(["Alice likes green tea"]);
      expect(sorted(await store.forget(ALICE, "cat"))).toEqual([
        "Alice feeds the cat at seven",
        "Alice’s CAT is called Miso",
      ]);
      expect(sorted((await store.list(ALICE)).facts)).toEqual([
        "Alice is scattering seeds in the garden",
        "Alice likes tea that is green",
      ]);
    });

    it("lists a scope in pages, most recently updated first", async () => {
      const { store, clock } = await fresh();
      for (let i = 0; i < 25; i++) {
        clock.now += 1;
        await store.remember({ scope: ALICE, text: `fact number ${i}`, source: source(`m${i}`) });
      }
      const first = await store.list(ALICE, { limit: 10 });
      expect(first.total).toBe(25);
      expect(first.facts.map((fact) => fact.text)[0]).toBe("fact number 24");
      const last = await store.list(ALICE, { limit: 10, offset: 20 });
      expect(last.facts.map((fact) => fact.text)).toEqual([4, 3, 2, 1, 0].map((i) => `fact number ${i}`));
    });

    it("answers queries of punctuation and search operators without a syntax error", async () => {
      const { store } = await fresh();
      await store.remember({ scope: ALICE, text: "Alice likes NEAR and OR words", source: source("m1") });
      for (const query of ['"', "*", "?!...", "(", ")", "AND OR NOT", "a:b", "'", "^", "NEAR(", "-", "\\", "&|!", ""]) {
        await expect(store.search([ALICE], query), query).resolves.toBeInstanceOf(Array);
      }
      expect(await store.search([ALICE], "?!...")).toEqual([]);
      expect((await store.search([ALICE], '"near" *')).length).toBe(1);
    });

    it("refuses an oversized fact and a fact holding a secret, saying why, and keeps nothing", async () => {
      const { store } = await fresh();
      const long = store.remember({ scope: ALICE, text: "x ".repeat(400), source: source("m1") });
      await expect(long).rejects.toBeInstanceOf(MemoryError);
      await expect(long).rejects.toMatchObject({ code: "fact_too_long", message: expect.stringContaining("500") });
      const key = `My OpenAI key is sk-proj-${"a1B2c3D4".repeat(4)}`;
      const secret = store.remember({ scope: ALICE, text: key, source: source("m2") });
      await expect(secret).rejects.toMatchObject({ code: "fact_has_secret" });
      await expect(secret).rejects.not.toMatchObject({ message: expect.stringContaining("sk-proj") });
      await expect(store.remember({ scope: ALICE, text: "   ", source: source("m3") })).rejects.toMatchObject({
        code: "fact_empty",
      });
      expect((await store.list(ALICE)).total).toBe(0);
    });

    it("exports a scope as JSON and counts facts per scope", async () => {
      const { store } = await fresh();
      await store.remember({ scope: ALICE, text: "Alice speaks Portuguese", source: source("m1") });
      await store.remember({ scope: ALICE, text: "Alice is vegetarian", source: source("m2") });
      await store.remember({ scope: "group:telegram:-100", text: "The group meets on Fridays", source: source("m3") });
      const exported = await store.export(ALICE);
      expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
      expect(exported).toMatchObject({ format: "chorus-memory-export", version: 1, scope: ALICE });
      expect(exported.facts.map((fact) => fact.text)).toEqual(["Alice speaks Portuguese", "Alice is vegetarian"]);
      expect(await store.countByScope()).toEqual([
        { scope: ALICE, count: 2 },
        { scope: "group:telegram:-100", count: 1 },
      ]);
    });

    it("keeps embeddings per fact and drops one when the fact's text is replaced", async () => {
      const { store } = await fresh();
      const tea = await store.remember({
        scope: ALICE,
        subject: "drink",
        text: "Alice drinks tea",
        source: source("m1"),
      });
      await store.setEmbedding(tea.fact.id, Float32Array.from([0.5, -0.25, 1]));
      expect(await store.embeddings([ALICE])).toEqual([
        { id: tea.fact.id, vector: Float32Array.from([0.5, -0.25, 1]) },
      ]);
      expect(await store.embeddings([BOB])).toEqual([]);
      await store.remember({ scope: ALICE, subject: "drink", text: "Alice drinks coffee now", source: source("m2") });
      expect(await store.embeddings([ALICE])).toEqual([]);
      expect((await store.getMany([tea.fact.id, "m000000000000"])).map((fact) => fact.text)).toEqual([
        "Alice drinks coffee now",
      ]);
    });
  });
}
