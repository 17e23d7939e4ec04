import { DEFAULT_SUMMARY_PROMPT, type HookEvent, type StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("/compact runs the agent's pre_compact hooks, as the automatic compaction does", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("calls each pre_compact hook once, before the summary call, with the session and its message count", async () => {
    const seen: { event: HookEvent; modelCallsSoFar: number }[] = [];
    let calls = 0;
    h = await startHarness({
      script: (context: StreamContext): ScriptedTurn => {
        calls++;
        return context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "Summary: they talked about x." : "ok";
      },
      gateway: {
        agents: { main: { hooks: { pre_compact: [(event) => void seen.push({ event, modelCallsSoFar: calls })] } } },
      },
    });
    const long = "x ".repeat(12_000);
    for (const text of [long, long, "short"]) await h.send({ text });
    expect(seen).toEqual([]);
    const key = (await h.store.listSessions())[0]!.key;

    await h.send({ text: "/compact" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toMatch(/^Compacted the conversation/);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.event).toMatchObject({ event: "pre_compact", sessionId: key, turn: 0, messageCount: 6 });
    // Three turns' calls came before; the summary came after the hook.
    expect(seen[0]?.modelCallsSoFar).toBe(3);
    expect(calls).toBe(4);
  });
});
