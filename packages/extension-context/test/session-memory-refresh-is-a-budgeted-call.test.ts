import type { Harness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_MEMORY_SETTING } from "../src/index.js";
import { budgetProbe } from "./fixtures/model-call-gates.js";
import {
  isRefresh,
  isSummariser,
  MEDIUM,
  sessionKeyOf,
  startMemoryHarness,
} from "./fixtures/session-memory-gateway.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("a session-memory refresh is the session's model call, under its budget", () => {
  it("every refresh reaches the budget with the session's key and purpose session_memory before it is made", async () => {
    const budget = budgetProbe();
    h = await startMemoryHarness({ before: [budget] });
    for (let i = 1; i <= 4; i++) await h.send({ text: `message ${i} ${MEDIUM}` });
    const key = await sessionKeyOf(h.store);
    const refreshes = h.streamFn.calls.filter((call) => isRefresh(call.context));
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    const reserved = budget.reserved.filter((call) => call.purpose === "session_memory");
    expect(reserved).toHaveLength(refreshes.length);
    expect(reserved.every((call) => call.sessionId === key)).toBe(true);
  });

  it("an exhausted budget for refreshes is harmless: every turn is answered and compaction falls back to tier 2", async () => {
    const budget = budgetProbe(new Set(["session_memory"]));
    h = await startMemoryHarness({ before: [budget] });
    for (let i = 1; i <= 11; i++) await h.send({ text: `message ${i} ${MEDIUM}` });
    const key = await sessionKeyOf(h.store);
    expect(budget.reserved.some((call) => call.purpose === "session_memory")).toBe(true);
    expect(h.streamFn.calls.some((call) => isRefresh(call.context))).toBe(false);
    expect(h.channel.transcript("dm-user-1")).toContain("answer 11");
    expect((await h.store.getSession(key))?.settings[SESSION_MEMORY_SETTING]).toBeUndefined();
    expect(h.streamFn.calls.some((call) => isSummariser(call.context))).toBe(true);
  });
});
