import { describe, expect, it } from "vitest";
import { runCacheConversation } from "../src/measure/cache-conversation.js";
import { cacheTotals } from "../src/suites/cache.js";

describe("the cache suite", () => {
  it("measures a conversation with tools, reminders, a sub-agent and a compaction through the Anthropic SDK", async () => {
    const { rows, compactions } = await runCacheConversation({ turns: 12, subAgentEvery: 5, contextWindow: 9_000 });
    expect(compactions).toBeGreaterThanOrEqual(1);
    expect(rows.some((row) => row.kind === "sub-agent")).toBe(true);
    expect(rows.some((row) => row.kind === "summariser")).toBe(true);
    const main = rows.filter((row) => row.kind === "main");
    // Outside a compaction each main request starts with the whole previous one, all of it behind a breakpoint:
    // reminders and tool results are only ever appended.
    for (let i = 1; i < main.length; i++) {
      const row = main[i];
      if (row === undefined || row.afterCompaction) continue;
      expect(row.prefixBytes).toBe(main[i - 1]?.totalBytes);
      expect(row.cacheableBytes).toBe(row.prefixBytes);
    }
    expect(main[1]?.breakpoints).toEqual(expect.arrayContaining(["tools[1]", "system[0]"]));
    const totals = cacheTotals(main.filter((row) => !row.afterCompaction));
    expect(totals.cacheable / totals.total).toBeGreaterThan(0.85);
  }, 60_000);
});
