import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, type AgentEvent, type PreDispatchPolicy, UnknownApprovalError } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";
import { echoTool, ofType, textOf } from "./support/test-tools.js";

const ask: PreDispatchPolicy = () => ({ kind: "ask", reason: "echo needs approval", timeoutMs: 60_000 });

function setup() {
  const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "echo", args: { text: "ran" } }] }, "after"]);
  const agent = new Agent({ model: fakeModel(), streamFn, tools: [echoTool], preDispatchPolicies: [ask] });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return { agent, events };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("approval of tool calls (pre-dispatch ask)", () => {
  it("emits approval_required and runs the call once approved", async () => {
    const { agent, events } = setup();
    agent.subscribe((e) => {
      if (e.type === "approval_required") agent.approve(e.approvalId);
    });
    await agent.prompt("go");
    const request = ofType(events, "approval_required")[0];
    expect(request).toMatchObject({ reason: "echo needs approval", toolCall: { name: "echo" }, timeoutMs: 60_000 });
    expect(textOf(ofType(events, "tool_execution_end")[0]?.result)).toBe("ran");
  });

  it("gives a denied call an error result with the reason", async () => {
    const { agent, events } = setup();
    const run = agent.prompt("go");
    await vi.waitFor(() => expect(agent.pendingApprovals()).toHaveLength(1));
    agent.deny(agent.pendingApprovals()[0] as string, "not today");
    await run;
    const end = ofType(events, "tool_execution_end")[0];
    expect(end?.isError).toBe(true);
    expect(textOf(end?.result)).toBe("Tool call denied: not today");
  });

  it("denies when nobody answers in time", async () => {
    vi.useFakeTimers();
    const { agent, events } = setup();
    const run = agent.prompt("go");
    await vi.advanceTimersByTimeAsync(60_000);
    await run;
    expect(textOf(ofType(events, "tool_execution_end")[0]?.result)).toBe("Tool call denied: no approval within 60 s");
    expect(agent.pendingApprovals()).toEqual([]);
    expect(() => agent.approve("nope")).toThrow(UnknownApprovalError);
  });
});
