import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, type AgentEvent, agentLoop } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, gateTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();

afterEach(() => {
  vi.useRealTimers();
});

describe("abort()", () => {
  it("stops the stream, keeps the partial message as aborted, emits agent_end, and the Agent is reusable", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([
      { blocks: [{ type: "text", text: "partial answer" }], endDelayMs: 10_000 },
      "second run works",
    ]);
    const agent = new Agent({ model, streamFn });
    const events: AgentEvent[] = [];
    agent.subscribe((e) => events.push(e));
    const run = agent.prompt("hello");
    await vi.advanceTimersByTimeAsync(10);
    expect(agent.state.streamingMessage).toBeDefined();
    agent.abort();
    const result = await run;
    expect(result.reason).toBe("aborted");
    const last = agent.state.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(textOf(last)).toBe("partial answer");
    expect(ofType(events, "agent_end")).toHaveLength(1);
    expect(agent.state.isRunning).toBe(false);
    expect(agent.state.error).toMatch(/Aborted/);

    const again = await agent.prompt("again");
    expect(again.reason).toBe("completed");
    expect(textOf(agent.state.messages.at(-1))).toBe("second run works");
  });

  it("abandons a tool that ignores its signal after the grace period and cancels the queued calls", async () => {
    vi.useFakeTimers();
    const deaf = gateTool("deaf", { ignoreSignal: true });
    const streamFn = scriptedStreamFn([{ toolCalls: ["A", "B"].map((id) => ({ name: "deaf", args: { id } })) }]);
    const controller = new AbortController();
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [] },
      { model, streamFn, tools: [deaf.tool], toolExecution: { abortGraceMs: 1_000 } },
      controller.signal,
    );
    let ended = false;
    const events = collect(stream).then((all) => {
      ended = true;
      return all;
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(deaf.started).toEqual(["A"]);
    controller.abort();
    await vi.advanceTimersByTimeAsync(999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe(true);
    const all = await events;
    const texts = ofType(all, "tool_execution_end").map((e) => textOf(e.result));
    expect(texts).toEqual([
      "Tool execution was aborted: user interrupted",
      "Tool execution was aborted: user interrupted",
    ]);
    expect(deaf.started).toEqual(["A"]);
    expect(ofType(all, "agent_end")[0]?.reason).toBe("aborted");
    expect(streamFn.calls).toHaveLength(1);
  });

  it("checks the signal between turns: a cooperative tool's abort ends the run without another model call", async () => {
    const gate = gateTool("gate");
    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "gate", args: { id: "A" } }] }, "never sent"]);
    const agent = new Agent({ model, streamFn, tools: [gate.tool] });
    const run = agent.prompt("go");
    await vi.waitFor(() => expect(gate.started).toEqual(["A"]));
    agent.abort("user pressed stop");
    const result = await run;
    expect(result.reason).toBe("aborted");
    expect(result.error).toBe("Aborted: user pressed stop");
    expect(streamFn.calls).toHaveLength(1);
    expect(gate.signals.get("A")?.aborted).toBe(true);
    const roles = agent.state.messages.map((m) => (m as { role: string }).role);
    expect(roles).toEqual(["user", "assistant", "toolResult"]);
  });
});
