import { type AnyAgentTool, defineTool, type PreDispatchPolicy } from "@chorus/core";
import { fakeModel } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { planModeGate } from "../src/plan-mode-gate.js";
import { PlanModeSessions } from "../src/plan-mode-sessions.js";
import { proposePlanTool } from "../src/propose-plan-tool.js";

const tool = (name: string, category: "info" | "edit" | "exec"): AnyAgentTool =>
  defineTool({ name, description: name, parameters: z.object({}), category, execute: () => ({ content: [] }) });

function decide(gate: PreDispatchPolicy, target: AnyAgentTool, sessionId = "s1") {
  return gate({
    messages: [],
    turn: 1,
    model: fakeModel(),
    run: { runId: "r1", depth: 0, sessionId },
    signal: new AbortController().signal,
    toolCall: { type: "toolCall", id: "c1", name: target.name, arguments: {} },
    tool: target,
    args: {},
  });
}

describe("the plan-mode gate (seed 003 step 12)", () => {
  const sessions = new PlanModeSessions(async () => {});
  const gate = planModeGate(sessions);
  const propose = proposePlanTool(sessions);

  it("in plan mode: info tools and propose_plan run; edit and exec tools are denied with what to do instead", () => {
    sessions.enter("s1");
    expect(decide(gate, tool("read_file", "info"))).toBeUndefined();
    expect(decide(gate, propose)).toBeUndefined();
    for (const target of [tool("write_file", "edit"), tool("exec", "exec")]) {
      expect(decide(gate, target)).toEqual({
        kind: "deny",
        reason: "Plan mode: only information (read-only) tools may run. Propose your plan with propose_plan first.",
      });
    }
    sessions.leave("s1");
  });

  it("outside plan mode every tool runs except propose_plan; other sessions are not affected", () => {
    sessions.enter("other");
    expect(decide(gate, tool("exec", "exec"))).toBeUndefined();
    expect(decide(gate, propose)).toMatchObject({ kind: "deny" });
    sessions.leave("other");
  });
});
