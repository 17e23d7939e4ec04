import { describe, expect, it } from "vitest";
import {
  Agent,
  type AgentEvent,
  type AgentMessage,
  FOCUS_KNOWLEDGE_PREFIX,
  FocusState,
  FocusStrategy,
  SUMMARY_PREFIX,
} from "../../src/index.js";
import { fakeModel, scriptedStreamFn } from "../../src/testing/index.js";
import { echoTool } from "../support/test-tools.js";
import { allText, outline } from "./support.js";

const RAW = "RAW-EXPLORATION-OUTPUT ".repeat(400); // ≈ 2 300 tokens of tool output
const HALF = "RAW-EXPLORATION-OUTPUT ".repeat(200);

/** A script: open a focus, read something big, close it with knowledge, then answer. */
function focusScript() {
  return scriptedStreamFn([
    { text: "Let me look.", toolCalls: [{ name: "start_focus", id: "s1", args: { scope: "find the config loader" } }] },
    { toolCalls: [{ name: "echo", id: "r1", args: { text: RAW } }] },
    {
      toolCalls: [
        { name: "complete_focus", id: "c1", args: { knowledge: "Config is read by loadConfig() in src/config.ts." } },
      ],
    },
    "The config loader is loadConfig() in src/config.ts.",
  ]);
}

describe("a closed focus segment is replaced by its knowledge in what the model is sent", () => {
  it("the request after complete_focus carries the knowledge, not the raw messages, with no tool pair split", async () => {
    const streamFn = focusScript();
    const focus = new FocusStrategy();
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [echoTool, ...focus.tools],
      context: focus.applyTo({}),
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    await agent.prompt("where is the config loaded?");

    const beforeClose = streamFn.calls[2]?.context.messages ?? [];
    expect(allText(beforeClose)).toContain("RAW-EXPLORATION-OUTPUT");
    const afterClose = streamFn.calls[3]?.context.messages ?? [];
    expect(outline(afterClose)).toEqual([
      "user: where is the config loaded?",
      `user: ${FOCUS_KNOWLEDGE_PREFIX}1] find the config loader`,
    ]);
    expect(allText(afterClose)).toContain("Config is read by loadConfig() in src/config.ts.");
    expect(allText(afterClose)).not.toContain("RAW-EXPLORATION-OUTPUT");
    // The Agent's transcript is the reduced one too (what a host stores after a compaction event).
    const reduced = events.filter((e) => e.type === "compaction" && e.kind === "focus");
    expect(reduced).toHaveLength(1);
    const event = reduced[0] as Extract<AgentEvent, { type: "compaction" }>;
    expect(event.tokensAfter).toBeLessThan(event.tokensBefore - 2_000);
    expect(outline(agent.state.messages).at(-1)).toBe("assistant: The config loader is loadConfig() in src/config.ts.");
    expect(focus.state.closed).toHaveLength(1);
    expect(focus.state.open).toBeUndefined();
  });

  it("the compaction threshold sees the reduced size: two segments' raw output never forces a summary", async () => {
    const segment = (n: number) => [
      { toolCalls: [{ name: "start_focus", id: `s${n}`, args: { scope: `part ${n}` } }] },
      { toolCalls: [{ name: "echo", id: `r${n}`, args: { text: HALF } }] },
      { toolCalls: [{ name: "complete_focus", id: `c${n}`, args: { knowledge: `Part ${n} is fine.` } }] },
    ];
    const streamFn = scriptedStreamFn([...segment(1), ...segment(2), "Both parts are fine."]);
    const focus = new FocusStrategy();
    // One segment's raw call and output (≈ 2 300 tokens) fit under window − reserve (3 000); two of them would not.
    const agent = new Agent({
      model: fakeModel({ contextWindow: 4_000 }),
      streamFn,
      tools: [echoTool, ...focus.tools],
      context: focus.applyTo({ reserve: 1_000, blockingReserve: 500, microCompaction: { enabled: false } }),
    });
    const result = await agent.prompt("check both parts");
    expect(result.error).toBeUndefined();
    expect(streamFn.calls).toHaveLength(7); // no summary call among them
    expect(allText(agent.state.messages)).not.toContain(SUMMARY_PREFIX);
    expect(outline(agent.state.messages).slice(0, 3)).toEqual([
      "user: check both parts",
      `user: ${FOCUS_KNOWLEDGE_PREFIX}1] part 1`,
      `user: ${FOCUS_KNOWLEDGE_PREFIX}2] part 2`,
    ]);
  });

  it("keeps the person's words said inside a segment, before the knowledge", async () => {
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "start_focus", id: "s1", args: { scope: "read the logs" } }] },
      "Started; tell me more.",
      { toolCalls: [{ name: "complete_focus", id: "c1", args: { knowledge: "The logs show a timeout at 14:02." } }] },
      "Done.",
    ]);
    const focus = new FocusStrategy();
    const agent = new Agent({ model: fakeModel(), streamFn, tools: focus.tools, context: focus.applyTo({}) });
    await agent.prompt("check the logs");
    await agent.prompt("also look for the 14:02 entry");
    expect(outline(streamFn.calls[3]?.context.messages ?? [])).toEqual([
      "user: check the logs",
      "user: also look for the 14:02 entry",
      `user: ${FOCUS_KNOWLEDGE_PREFIX}1] read the logs`,
    ]);
  });

  it("a transcript read back with the raw segment (after a restart) is reduced again from the restored state", async () => {
    const first = focusScript();
    let stored: unknown;
    const focus = new FocusStrategy({ onChange: (state) => (stored = state.snapshot()) });
    const raw: AgentMessage[] = [];
    const agent = new Agent({ model: fakeModel(), streamFn: first, tools: [echoTool, ...focus.tools] });
    // No reduction wired in here: the transcript keeps the raw messages, as a store that never saw the reduction does.
    agent.subscribe((e) => e.type === "message_end" && raw.push(e.message));
    await agent.prompt("where is the config loaded?");
    expect(allText(raw)).toContain("RAW-EXPLORATION-OUTPUT");

    const again = scriptedStreamFn(["It is loadConfig()."]);
    const restored = new FocusStrategy({ state: FocusState.restore(JSON.parse(JSON.stringify(stored))) });
    const next = new Agent({
      model: fakeModel(),
      streamFn: again,
      tools: [echoTool, ...restored.tools],
      context: restored.applyTo({}),
      messages: raw,
    });
    await next.prompt("and again?");
    const sent = again.calls[0]?.context.messages ?? [];
    expect(allText(sent)).not.toContain("RAW-EXPLORATION-OUTPUT");
    expect(allText(sent)).toContain("Config is read by loadConfig()");
  });
});
