import { estimateTokens } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { measureConsolidation, measureReduction } from "../src/measure/focus-consolidation.js";
import { focusTables } from "../src/suites/focus.js";

describe("the focus suite", () => {
  it("measures the event loop during both kinds of scoring and the reduction, and prints both tables", async () => {
    const sliced = await measureConsolidation(300, "bounded slices");
    const block = await measureConsolidation(300, "one block");
    expect(sliced.merges).toBeGreaterThan(0);
    expect(sliced.merges).toBe(block.merges); // the same grouping, only the yielding differs
    expect(sliced.delayMaxMs).toBeGreaterThan(0);
    expect(block.slices).toBe(1); // one block never yields; the shipped pass yields between slices
    expect(sliced.slices).toBeGreaterThan(1);
    const reduction = measureReduction(50, (messages) => estimateTokens(messages));
    expect(reduction.tokensReduced).toBeLessThan(reduction.tokensRaw / 5);

    const [passes, reductions] = focusTables([sliced, block], [reduction]);
    expect(passes?.rows.map((row) => row[1])).toEqual(["bounded slices", "one block"]);
    for (const row of passes?.rows ?? []) expect(row).toHaveLength(8);
    for (const row of reductions?.rows ?? []) expect(row).toHaveLength(6);
  }, 60_000);
});
