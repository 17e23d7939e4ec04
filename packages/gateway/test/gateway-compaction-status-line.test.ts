import { DEFAULT_SUMMARY_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { COMPACTING_TEXT } from "../src/compaction/compaction-status-line.js";
import type { GatewayConfigInput } from "../src/config/index.js";
import { BASE_CONFIG, type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { LONG_MESSAGE, SMALL_WINDOW } from "./fixtures/small-context-window.js";

const long = LONG_MESSAGE; // ~3 000 tokens

function script(summary: ScriptedTurn): (context: { systemPrompt?: string }) => ScriptedTurn {
  let turn = 0;
  return (context) => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? summary : `answer ${++turn}`);
}

async function sendLong(h: Harness, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await h.channel.inject({ text: long });
    await vi.advanceTimersByTimeAsync(3_000);
    await h.gateway.idle();
  }
}

describe("compaction progress in the chat (seed 002)", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("shows a status line while the compaction runs and edits it in place into what it saved", async () => {
    vi.useFakeTimers();
    h = await startHarness({ script: script({ text: "the gist", endDelayMs: 2_000 }), gateway: SMALL_WINDOW });
    await sendLong(h, 2);

    const third = h.channel.inject({ text: long });
    await vi.advanceTimersByTimeAsync(500);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe(COMPACTING_TEXT);
    await vi.advanceTimersByTimeAsync(3_000);
    await third;
    await h.gateway.idle();

    const chat = h.channel.transcript("dm-user-1");
    expect(chat).not.toContain(COMPACTING_TEXT);
    const line = [...h.channel.messages.values()].find((m) => m.text.includes("Compacted the conversation"));
    expect(line?.text).toMatch(/Compacted the conversation: ~\d+k? → ~\d+k? tokens \(saved ~\d+k?\)\./);
    expect(line?.edits).toBe(1);
    expect(chat.at(-1)).toBe("answer 3");
    expect(chat.filter((t) => t.includes("Compact"))).toHaveLength(1);
  });

  it("sends the outcome as a second message where the platform cannot edit", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      script: script({ text: "the gist", endDelayMs: 2_000 }),
      gateway: SMALL_WINDOW,
      channel: { capabilities: { edit: false } },
    });
    await sendLong(h, 3);
    const chat = h.channel.transcript("dm-user-1");
    expect(chat).toContain(COMPACTING_TEXT);
    expect(chat.some((t) => /saved ~\d+/.test(t))).toBe(true);
    expect(chat.at(-1)).toBe("answer 3");
  });

  it("says so when the compaction fails", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      // The summariser fails after a while (as a real one does), once the status line reached the chat.
      script: script({
        fault: "error",
        error: { kind: "invalid_request", message: "summariser down" },
        partial: { text: "the", endDelayMs: 2_000 },
      }),
      gateway: SMALL_WINDOW,
    });
    await sendLong(h, 3);
    const chat = h.channel.transcript("dm-user-1");
    expect(chat.some((t) => t.includes("Could not compact the conversation"))).toBe(true);
    expect(chat).not.toContain(COMPACTING_TEXT);
  });

  it("is off when the agent turns it off", async () => {
    vi.useFakeTimers();
    const config: GatewayConfigInput = {
      ...BASE_CONFIG,
      agents: [{ id: "main", model: "fake-model", compaction: { statusLine: false } }],
    };
    h = await startHarness({ script: script({ text: "the gist" }), gateway: SMALL_WINDOW, config });
    await sendLong(h, 3);
    expect(h.channel.transcript("dm-user-1").filter((t) => t.includes("ompact"))).toEqual([]);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("answer 3");
  });
});
