import type { Harness } from "@chorus/gateway-testing";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, TEST_SERVER } from "@chorus/store-postgres/testing";
import { startNetworkGate } from "@chorus/testkit";
import { afterAll, describe, expect, it, vi } from "vitest";
import { SESSION_MEMORY_SETTING } from "../src/index.js";
import { holdCalls } from "./fixtures/model-call-gates.js";
import { CHAT, MEDIUM, sessionKeyOf, startMemoryHarness, storedTexts } from "./fixtures/session-memory-gateway.js";

// The summary's write is cut off by the database (testkit's TCP gate in front of PostgreSQL): the write is lost whole,
// nothing else is (the transcript, the other settings), and the session goes on storing its summary afterwards.
const database = await createScratchDatabase();
const gate = await startNetworkGate(`postgres://${TEST_SERVER.host}:${TEST_SERVER.port}`);
afterAll(async () => {
  await gate.close();
  await database.drop();
});

describe("a database cut in the middle of the summary's write", () => {
  let h: Harness | undefined;
  let store: PostgresSessionStore | undefined;
  afterAll(async () => {
    await h?.close();
    await store?.close();
  });

  it("loses only that write: the transcript and the other settings are intact, and later summaries are stored", async () => {
    const db = await PostgresSessionStore.open({
      url: `postgres://${TEST_SERVER.user}@127.0.0.1:${gate.port}/${database.name}`,
      connectTimeoutMs: 1_000,
      queryTimeoutMs: 2_000,
      onWarning: () => {},
    });
    store = db;
    const hold = holdCalls("session_memory");
    h = await startMemoryHarness({ store: db, window: 200_000, before: [hold] });
    await h.send({ text: `message 1 ${MEDIUM}` });
    const key = await sessionKeyOf(h.store);
    const session = await db.getSession(key);
    await db.updateSession(key, { settings: { ...session?.settings, other: "kept" } });

    // The second answer is committed while its refresh waits; then the database goes away and the refresh lands.
    await h.channel.inject({ text: `message 2 ${MEDIUM}` });
    await vi.waitFor(async () => expect(await storedTexts(db, key)).toContain("answer 2"), { timeout: 5_000 });
    expect(hold.held()).toBe(1);
    gate.shut();
    hold.release();
    await h.gateway.idle();
    gate.open();

    const after = await db.getSession(key);
    expect(after?.settings.other).toBe("kept");
    expect(after?.settings[SESSION_MEMORY_SETTING]).toBeUndefined();
    const texts = await storedTexts(db, key);
    expect(texts).toHaveLength(4);
    expect(texts.filter((text) => text.startsWith("answer "))).toEqual(["answer 1", "answer 2"]);

    for (let i = 3; i <= 4; i++) await h.send({ text: `message ${i} ${MEDIUM}` });
    expect(h.channel.transcript(CHAT)).toContain("answer 4");
    const settings = (await db.getSession(key))?.settings;
    expect(settings?.other).toBe("kept");
    expect(settings?.[SESSION_MEMORY_SETTING]).toMatchObject({ version: 1, covered: { index: 7, role: "assistant" } });
  }, 30_000);
});
