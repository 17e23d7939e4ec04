import { SUMMARY_PREFIX } from "@chorus/core";
import type { Harness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_MEMORY_SETTING } from "../src/index.js";
import {
  CHAT,
  isRefresh,
  isSummariser,
  MEDIUM,
  sessionKeyOf,
  startMemoryHarness,
  storedTexts,
} from "./fixtures/session-memory-gateway.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function chatUntilCompacted(harness: Harness, limit = 14): Promise<number> {
  for (let i = 1; i <= limit; i++) {
    await harness.send({ text: `message ${i} ${MEDIUM}` });
    const compacted = (await storedTexts(harness.store, await sessionKeyOf(harness.store)))[0]?.startsWith(
      SUMMARY_PREFIX,
    );
    if (compacted) return i;
  }
  throw new Error("no compaction happened");
}

describe("the session memory through the gateway (issue #34 requirement 1)", () => {
  it("a compaction is served by the kept summary: no summariser call, later messages kept, the summary stored", async () => {
    h = await startMemoryHarness();
    const sent = await chatUntilCompacted(h);
    const key = await sessionKeyOf(h.store);
    const calls = h.streamFn.calls;

    expect(calls.some((call) => isSummariser(call.context))).toBe(false);
    const refreshes = calls.filter((call) => isRefresh(call.context));
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    for (const call of refreshes) {
      expect(call.model.id).toBe("fake-large");
      expect(call.options).toMatchObject({ sessionId: key, purpose: "session_memory" });
    }
    const texts = await storedTexts(h.store, key);
    expect(texts[0]).toMatch(new RegExp(`^${SUMMARY_PREFIX.slice(0, 20)}[\\s\\S]*kept summary \\d+$`));
    // Every message after the covered one stays verbatim, up to the one just answered.
    expect(texts.at(-2)).toContain(`message ${sent} `);
    expect(texts.at(-1)).toBe(`answer ${sent}`);
    expect(texts.filter((text) => text.startsWith("message ")).length).toBeGreaterThanOrEqual(1);
    const chat = h.channel.transcript(CHAT);
    expect(chat).toContain(`answer ${sent}`);
    // The gateway's status line tells a tier-1 compaction like any other.
    expect(chat.some((line) => /Compacted the conversation: ~10k → ~\d+ tokens/.test(line))).toBe(true);

    // The stored summary now covers its own compaction part (index 0) or what a later refresh reached.
    const stored = (await h.store.getSession(key))?.settings[SESSION_MEMORY_SETTING] as {
      covered: { index: number };
    };
    expect(stored.covered.index).toBeLessThan(texts.length);
  });

  it("/new drops the kept summary with the transcript", async () => {
    h = await startMemoryHarness();
    for (let i = 1; i <= 3; i++) await h.send({ text: `message ${i} ${MEDIUM}` });
    const key = await sessionKeyOf(h.store);
    expect((await h.store.getSession(key))?.settings[SESSION_MEMORY_SETTING]).toBeDefined();
    await h.send({ text: "/new" });
    expect((await h.store.getSession(key))?.settings[SESSION_MEMORY_SETTING]).toBeUndefined();
  });
});
