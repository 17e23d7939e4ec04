import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";
import { echoTool, gateTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();

afterEach(() => {
  vi.useRealTimers();
});

describe("steering (seed 000, L4 steering interrupt)", () => {
  it("cancels the batch's remaining tools after the current one and injects the message before the next turn", async () => {
    const gate = gateTool("gate");
    const streamFn = scriptedStreamFn([
      { toolCalls: ["A", "B", "C"].map((id) => ({ name: "gate", args: { id } })) },
      "understood",
    ]);
    const agent = new Agent({ model, streamFn, tools: [gate.tool] });
    const events: AgentEvent[] = [];
    agent.subscribe((e) => events.push(e));
    const run = agent.prompt("do three things");
    await vi.waitFor(() => expect(gate.started).toEqual(["A"]));
    agent.steer("stop, do something else");
    gate.release("A");
    await run;

    expect(gate.started).toEqual(["A"]);
    const ends = ofType(events, "tool_execution_end");
    expect(ends.map((e) => [e.toolCallId, textOf(e.result)])).toEqual([
      ["call_1", "A done"],
      ["call_2", "tool call cancelled: user requested steering interrupt"],
      ["call_3", "tool call cancelled: user requested steering interrupt"],
    ]);
    const second = streamFn.calls[1]?.context.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult", "user"]);
    expect(textOf(second.at(-1))).toBe("stop, do something else");
    const types = events.map((e) => e.type);
    expect(types.indexOf("turn_end")).toBeLessThan(types.lastIndexOf("turn_start"));
  });

  it("polls steering at turn end too: a message sent while the model answers starts another turn", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([{ text: "long answer", endDelayMs: 1000 }, "ok, changing course"]);
    const agent = new Agent({ model, streamFn });
    const run = agent.prompt("write");
    await vi.advanceTimersByTimeAsync(500);
    agent.steer("actually, shorter");
    await vi.runAllTimersAsync();
    const result = await run;
    expect(result.messages.map(textOf)).toEqual(["write", "long answer", "actually, shorter", "ok, changing course"]);
  });
});

describe("follow-ups", () => {
  it("are polled only when the agent would stop, and each starts a new turn", async () => {
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "echo", args: { text: "x" } }] },
      "first answer",
      "second answer",
    ]);
    const agent = new Agent({ model, streamFn, tools: [echoTool] });
    const turns: number[] = [];
    agent.subscribe((e) => {
      if (e.type === "turn_start") turns.push(e.turn);
      if (e.type === "tool_execution_start") agent.followUp("and also this");
    });
    await agent.prompt("start");
    expect(streamFn.calls).toHaveLength(3);
    expect(streamFn.calls[1]?.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(textOf(streamFn.calls[2]?.context.messages.at(-1))).toBe("and also this");
    expect(turns).toEqual([1, 2, 3]);
    expect(agent.state.messages.map(textOf).at(-1)).toBe("second answer");
  });
});
