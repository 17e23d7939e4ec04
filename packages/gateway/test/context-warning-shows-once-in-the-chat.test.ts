import { DEFAULT_SUMMARY_PROMPT } from "@chorus/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { COMPACTING_TEXT } from "../src/compaction/compaction-status-line.js";
import type { GatewayConfigInput } from "../src/config/index.js";
import { BASE_CONFIG, type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { SMALL_WINDOW } from "./fixtures/small-context-window.js";

// window 10 000, reserve 2 000: compaction past 8 000; with an offset of 3 000 the warning comes past 5 000.
const WARNED = { loop: { context: { ...SMALL_WINDOW.loop.context, warningOffset: 3_000 } } };
const medium = "x ".repeat(2_000); // ~1 000 tokens

function script(): (context: { systemPrompt?: string }) => string {
  let turn = 0;
  return (context) => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "the gist" : `answer ${++turn}`);
}

async function sendMedium(h: Harness, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await h.channel.inject({ text: medium });
    await vi.advanceTimersByTimeAsync(3_000);
    await h.gateway.idle();
  }
}

const warnings = (h: Harness): string[] => h.channel.transcript("dm-user-1").filter((t) => t.startsWith("📈 Context"));

describe("the context warning in the chat (seed 004's offsets, issue #34)", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("is shown once as the conversation nears its compaction, not on every turn, and again after one", async () => {
    vi.useFakeTimers();
    h = await startHarness({ script: script(), gateway: WARNED });
    await sendMedium(h, 4); // ~4 000 tokens: under the line
    expect(warnings(h)).toEqual([]);
    await sendMedium(h, 3); // past 5 000, still under 8 000: three turns, one line
    expect(warnings(h)).toHaveLength(1);
    expect(warnings(h)[0]).toMatch(/^📈 Context [5-7]\d% full — older messages will be summarised soon\.$/);
    expect(h.channel.transcript("dm-user-1")).not.toContain(COMPACTING_TEXT);
    await sendMedium(h, 2); // the compaction comes: its own line, not another warning
    expect(h.channel.transcript("dm-user-1").some((t) => t.includes("Compacted the conversation"))).toBe(true);
    expect(warnings(h)).toHaveLength(1);
    await sendMedium(h, 6); // back under after the compaction, then past the line again
    expect(warnings(h)).toHaveLength(2);
  });

  it("is not shown when the agent turns its status line off", async () => {
    vi.useFakeTimers();
    const config: GatewayConfigInput = {
      ...BASE_CONFIG,
      agents: [{ id: "main", model: "fake-model", compaction: { statusLine: false } }],
    };
    h = await startHarness({ script: script(), gateway: WARNED, config });
    await sendMedium(h, 7);
    expect(warnings(h)).toEqual([]);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("answer 7");
  });
});
