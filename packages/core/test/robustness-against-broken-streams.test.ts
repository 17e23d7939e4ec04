import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, agentLoop, noRetry } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, gateTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();

afterEach(() => {
  vi.useRealTimers();
});

async function runWith(script: Parameters<typeof scriptedStreamFn>[0], extra = {}) {
  const streamFn = scriptedStreamFn(script);
  const events = await collect(
    agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn, retryStrategy: noRetry, ...extra }),
  );
  return { events, streamFn, end: ofType(events, "agent_end")[0] };
}

describe("a StreamFn that breaks its contract cannot hang the loop", () => {
  it("a StreamFn that throws ends the run with an error message and agent_end", async () => {
    const { end } = await runWith([{ fault: "throw", message: "boom" }]);
    expect(end?.reason).toBe("error");
    expect(end?.error).toBe("StreamFn failed: boom");
    expect(end?.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
  });

  it("a stream that ends without a final event is an error", async () => {
    const { end } = await runWith([{ fault: "broken", mode: "end", partial: { text: "half" } }]);
    expect(end?.reason).toBe("error");
    expect(end?.error).toBe("The stream ended without a final event");
  });

  it("a stream whose iterator rejects is an error", async () => {
    const { end } = await runWith([{ fault: "broken", mode: "reject" }]);
    expect(end?.error).toMatch(/^The stream broke: .*broken stream/);
  });

  it("a broken stream is retried with the default strategy, and the partial output is discarded", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([{ fault: "broken", mode: "end", partial: { text: "garbage" } }, "clean answer"]);
    const stream = agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn });
    const events = collect(stream);
    await vi.runAllTimersAsync();
    const all = await events;
    expect(ofType(all, "retry")).toHaveLength(1);
    expect(ofType(all, "retry")[0]?.discarded).toBeDefined();
    const added = await stream.result();
    expect(added.map(textOf)).toEqual(["hi", "clean answer"]);
  });

  it("a stream that never ends and ignores abort is cut off by stall detection", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn([{ fault: "hang", ignoreSignal: true }]);
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model,
        streamFn,
        stallTimeoutMs: 5_000,
        stallRecovery: "abort",
      },
    );
    const events = collect(stream);
    await vi.advanceTimersByTimeAsync(5_000);
    const all = await events;
    expect(ofType(all, "stall")).toEqual([{ type: "stall", timeoutMs: 5_000, attempt: 1 }]);
    expect(ofType(all, "agent_end")[0]?.reason).toBe("error");
  });

  it("a tool that never resolves cannot wedge the Agent past its timeout", async () => {
    vi.useFakeTimers();
    const stuck = gateTool("stuck", { ignoreSignal: true, category: "edit" });
    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "stuck", args: { id: "x" } }] }, "moved on", "next run"]);
    const agent = new Agent({ model, streamFn, tools: [stuck.tool] });
    const run = agent.prompt("go");
    await vi.advanceTimersByTimeAsync(30_000);
    const result = await run;
    expect(result.reason).toBe("completed");
    expect(textOf(result.messages.at(-1))).toBe("moved on");
    await expect(agent.prompt("again")).resolves.toMatchObject({ reason: "completed" });
  });

  it("a throwing transform hook ends the run with agent_end instead of rejecting", async () => {
    const { end } = await runWith(["never"], {
      transformContext: () => {
        throw new Error("bad hook");
      },
    });
    expect(end?.reason).toBe("error");
    expect(end?.error).toBe("The agent loop failed: bad hook");
  });
});
