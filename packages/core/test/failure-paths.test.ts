import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent, type AgentMessage, agentLoop, defaultRetryStrategy, defineTool } from "../src/index.js";
import { assistantText, fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, ofType, textOf } from "./support/test-tools.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("failure paths", () => {
  it("gives up on a stream that keeps breaking after partial output, after 2 retries", async () => {
    vi.useFakeTimers();
    const streamFn = scriptedStreamFn(() => ({
      fault: "error",
      error: { kind: "network", message: "connection reset" },
      partial: { text: "some" },
    }));
    const stream = agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model: fakeModel(),
        streamFn,
        retryStrategy: defaultRetryStrategy({ random: () => 0 }),
      },
    );
    const events = collect(stream);
    await vi.runAllTimersAsync();
    const all = await events;
    expect(streamFn.calls).toHaveLength(3);
    expect(ofType(all, "agent_end")[0]?.error).toBe("stream failed after partial output 3 times: connection reset");
  });

  it("sends the request anyway when the summariser fails but the request still fits under the ceiling", async () => {
    const model = fakeModel({ contextWindow: 10_000 });
    const history: AgentMessage[] = [];
    for (let i = 0; i < 8; i++) history.push(userMessage("x".repeat(2_000)), assistantText("y".repeat(2_000)));
    const streamFn = scriptedStreamFn((ctx) =>
      ctx.systemPrompt?.startsWith("You are compacting")
        ? { fault: "error", error: { kind: "invalid_request", message: "no summaries today" } }
        : "answered",
    );
    const stream = agentLoop(
      [userMessage("now")],
      { messages: history },
      {
        model,
        streamFn,
        context: { reserve: 3_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_000 } },
      },
    );
    const events = await collect(stream);
    expect(ofType(events, "compaction")).toEqual([]);
    expect(streamFn.calls.map((c) => c.context.systemPrompt?.startsWith("You are compacting") ?? false)).toEqual([
      true,
      false,
    ]);
    expect(textOf((await stream.result()).at(-1))).toBe("answered");
  });

  it("an abort while a tool waits for approval denies it and ends the run as aborted", async () => {
    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, "never"]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [echoTool],
      preDispatchPolicies: [() => ({ kind: "ask", reason: "check" })],
    });
    const run = agent.prompt("go");
    await vi.waitFor(() => expect(agent.pendingApprovals()).toHaveLength(1));
    agent.abort();
    const result = await run;
    expect(result.reason).toBe("aborted");
    expect(agent.pendingApprovals()).toEqual([]);
    expect(streamFn.calls).toHaveLength(1);
    const last = agent.state.messages.at(-1);
    expect(last).toMatchObject({ role: "toolResult", isError: true });
  });

  it("a per-tool timeoutMs overrides its category timeout", async () => {
    vi.useFakeTimers();
    const slow = defineTool({
      name: "slow",
      description: "never answers",
      parameters: z.object({}),
      category: "exec",
      timeoutMs: 1_500,
      execute: () => new Promise<never>(() => {}),
    });
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [] },
      {
        model: fakeModel(),
        streamFn: scriptedStreamFn([{ toolCalls: [{ name: "slow", args: {} }] }, "ok"]),
        tools: [slow],
      },
    );
    const events = collect(stream);
    await vi.advanceTimersByTimeAsync(1_500);
    const all = await events;
    expect(textOf(ofType(all, "tool_execution_end")[0]?.result)).toBe(
      "Tool execution was aborted: timed out after 1.5 s (exec timeout)",
    );
  });
});
