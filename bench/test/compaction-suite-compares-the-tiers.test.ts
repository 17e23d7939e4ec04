import { describe, expect, it } from "vitest";
import { runCompactionTiers } from "../src/measure/compaction-tiers.js";
import { compactionTables } from "../src/suites/compaction.js";

describe("the compaction suite", () => {
  it("serves compactions from the kept summary without the wait of a summary call, and prints both tables", async () => {
    const options = { turns: 30, latencyMs: 20 };
    const tierTwoOnly = await runCompactionTiers(false, options);
    const withMemory = await runCompactionTiers(true, options);
    expect(tierTwoOnly.compactions.length).toBeGreaterThanOrEqual(2);
    expect(tierTwoOnly.compactions.every((c) => c.tier === 2 && c.waitMs >= 15)).toBe(true);
    const tierOne = withMemory.compactions.filter((c) => c.tier === 1);
    expect(tierOne.length).toBeGreaterThanOrEqual(1);
    expect(tierOne.every((c) => c.waitMs < 10)).toBe(true);
    expect(withMemory.refreshes).toBeGreaterThan(0);

    const [waits, share] = compactionTables(tierTwoOnly, withMemory);
    expect(waits?.headers).toHaveLength(4);
    expect(waits?.rows.map((row) => row[0])).toEqual([
      "tier 1: the kept session-memory summary",
      "tier 2: summarised by a model call",
      "turn without a compaction",
    ]);
    expect(share?.rows[1]?.[4]).toMatch(/^\d+ %$/);
    for (const row of waits?.rows ?? []) expect(row).toHaveLength(4);
    for (const row of share?.rows ?? []) expect(row).toHaveLength(6);
  }, 60_000);
});
