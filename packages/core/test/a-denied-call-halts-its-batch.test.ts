import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  type AgentEvent,
  type AnyAgentTool,
  agentLoop,
  type PreDispatchPolicy,
  type ToolResultMessage,
} from "../src/index.js";
import { fakeModel, type ScriptedToolCall, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, gateTool, ofType, textOf } from "./support/test-tools.js";

// Seed 001 "Tool Call Processing": a call refused before it runs halts the rest of its batch; each skipped sibling
// gets a synthetic result saying why, and the model sees every result of the batch in call order.

const SKIPPED_FOR_GATE = 'Tool call skipped: a sibling tool call in the same batch ("gate") was denied';

/** Denies every call of `name` (as the trust-tier gate or a plan-mode gate would). */
function denyTool(name: string, reason: string): PreDispatchPolicy {
  return ({ toolCall }) => (toolCall.name === name ? { kind: "deny", reason } : undefined);
}

function runBatch(calls: ScriptedToolCall[], tools: AnyAgentTool[], policies: PreDispatchPolicy[]) {
  const streamFn = scriptedStreamFn([{ toolCalls: calls }, "understood"]);
  const events = collect(
    agentLoop(
      [userMessage("go")],
      { messages: [] },
      { model: fakeModel(), streamFn, tools, preDispatchPolicies: policies },
    ),
  );
  return { events, streamFn };
}

/** What the model was sent on its second call: the batch's results, in call order. */
function resultsSeenByModel(streamFn: ReturnType<typeof scriptedStreamFn>): { id: string; text: string }[] {
  const messages = streamFn.calls[1]?.context.messages ?? [];
  return messages
    .filter((m): m is ToolResultMessage => m.role === "toolResult")
    .map((m) => ({ id: m.toolCallId, text: textOf(m) }));
}

describe("a denied tool call halts its batch (seed 001)", () => {
  it("never runs the calls after a denied one, and the model sees every call's result and why", async () => {
    const gate = gateTool("gate");
    const write = gateTool("write");
    const { events, streamFn } = runBatch(
      [
        { name: "gate", id: "c1", args: { id: "first" } },
        { name: "write", id: "c2", args: { id: "second" } },
        { name: "echo", id: "c3", args: { text: "third" } },
      ],
      [gate.tool, write.tool, echoTool],
      [denyTool("gate", 'Tool "gate" is not available to a guest user.')],
    );
    const all = await events;
    expect(gate.started).toEqual([]);
    expect(write.started).toEqual([]);
    expect(resultsSeenByModel(streamFn)).toEqual([
      { id: "c1", text: 'Tool "gate" is not available to a guest user.' },
      { id: "c2", text: SKIPPED_FOR_GATE },
      { id: "c3", text: SKIPPED_FOR_GATE },
    ]);
    expect(ofType(all, "tool_execution_end").every((e) => e.isError)).toBe(true);
    expect(ofType(all, "agent_end")[0]?.reason).toBe("completed");
  });

  it("halts the batch when the person refuses an approval", async () => {
    const write = gateTool("write");
    const streamFn = scriptedStreamFn([
      {
        toolCalls: [
          { name: "echo", id: "c1", args: { text: "risky" } },
          { name: "write", id: "c2", args: { id: "next" } },
        ],
      },
      "understood",
    ]);
    const ask: PreDispatchPolicy = ({ toolCall }) =>
      toolCall.name === "echo" ? { kind: "ask", reason: "echo needs approval", timeoutMs: 60_000 } : undefined;
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [echoTool, write.tool],
      preDispatchPolicies: [ask],
    });
    const run = agent.prompt("go");
    await vi.waitFor(() => expect(agent.pendingApprovals()).toHaveLength(1));
    agent.deny(agent.pendingApprovals()[0] as string, "not today");
    await run;
    expect(write.started).toEqual([]);
    expect(resultsSeenByModel(streamFn)).toEqual([
      { id: "c1", text: "Tool call denied: not today" },
      { id: "c2", text: 'Tool call skipped: a sibling tool call in the same batch ("echo") was denied' },
    ]);
  });

  it("lets a safe sibling that already runs finish with its own result, and skips the rest", async () => {
    const reader = gateTool("reader", { safe: true });
    const write = gateTool("write");
    const { events, streamFn } = runBatch(
      [
        { name: "reader", id: "c1", args: { id: "read" } },
        { name: "gate", id: "c2", args: { id: "refused" } },
        { name: "write", id: "c3", args: { id: "after" } },
      ],
      [reader.tool, gateTool("gate", { safe: true }).tool, write.tool],
      [denyTool("gate", "gate is off limits")],
    );
    await vi.waitFor(() => expect(reader.started).toEqual(["read"]));
    // The denial has already skipped the unsafe call queued behind it while the reader still runs.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reader.signals.get("read")?.aborted).toBe(false);
    reader.release("read", "file contents");
    await events;
    expect(write.started).toEqual([]);
    expect(resultsSeenByModel(streamFn)).toEqual([
      { id: "c1", text: "file contents" },
      { id: "c2", text: "gate is off limits" },
      { id: "c3", text: SKIPPED_FOR_GATE },
    ]);
  });

  it("a user abort after the denial still stops the sibling that runs", async () => {
    const reader = gateTool("reader", { safe: true });
    const streamFn = scriptedStreamFn([
      {
        toolCalls: [
          { name: "reader", id: "c1", args: { id: "read" } },
          { name: "gate", id: "c2", args: { id: "refused" } },
        ],
      },
      "understood",
    ]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [reader.tool, gateTool("gate", { safe: true }).tool],
      preDispatchPolicies: [denyTool("gate", "gate is off limits")],
    });
    const run = agent.prompt("go");
    await vi.waitFor(() => expect(reader.started).toEqual(["read"]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    agent.abort();
    await run;
    expect((reader.signals.get("read")?.reason as { kind?: string } | undefined)?.kind).toBe("user");
  });

  it("skips a sibling still waiting for its approval, and withdraws the question", async () => {
    const streamFn = scriptedStreamFn([
      {
        toolCalls: [
          { name: "echo", id: "c1", args: { text: "needs a yes" } },
          { name: "gate", id: "c2", args: { id: "refused" }, delayMs: 20 },
        ],
      },
      "understood",
    ]);
    const policies: PreDispatchPolicy[] = [
      ({ toolCall }) => (toolCall.name === "echo" ? { kind: "ask", reason: "echo needs approval" } : undefined),
      denyTool("gate", "gate is off limits"),
    ];
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [echoTool, gateTool("gate", { safe: true }).tool],
      preDispatchPolicies: policies,
    });
    const asked: AgentEvent[] = [];
    agent.subscribe((e) => {
      if (e.type === "approval_required") asked.push(e);
    });
    await agent.prompt("go");
    expect(asked).toHaveLength(1);
    expect(agent.pendingApprovals()).toEqual([]);
    expect(resultsSeenByModel(streamFn)).toEqual([
      { id: "c1", text: SKIPPED_FOR_GATE },
      { id: "c2", text: "gate is off limits" },
    ]);
  });

  it("skips a call that streams in after the denial", async () => {
    const write = gateTool("write");
    const { events, streamFn } = runBatch(
      [
        { name: "gate", id: "c1", args: { id: "refused" } },
        { name: "write", id: "c2", args: { id: "late" }, delayMs: 30 },
      ],
      [gateTool("gate", { safe: true }).tool, write.tool],
      [denyTool("gate", "gate is off limits")],
    );
    await events;
    expect(write.started).toEqual([]);
    expect(resultsSeenByModel(streamFn)).toEqual([
      { id: "c1", text: "gate is off limits" },
      { id: "c2", text: SKIPPED_FOR_GATE },
    ]);
  });

  it("does not halt the batch for a tool that fails: that is an error, not a denial", async () => {
    const failing = gateTool("failing", { safe: true });
    const { events, streamFn } = runBatch(
      [
        { name: "failing", id: "c1", args: { id: "boom" } },
        { name: "echo", id: "c2", args: { text: "still ran" } },
      ],
      [failing.tool, echoTool],
      [() => undefined],
    );
    await vi.waitFor(() => expect(failing.started).toEqual(["boom"]));
    failing.fail("boom", "disk full");
    await events;
    expect(resultsSeenByModel(streamFn)).toEqual([
      { id: "c1", text: "disk full" },
      { id: "c2", text: "still ran" },
    ]);
  });
});
