import { existsSync } from "node:fs";
import { join } from "node:path";
import { Agent, type ToolResultMessage } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { createApprovalPolicy } from "../src/policy/approval-policy.js";
import { createToolPolicyGate } from "../src/policy/policy-gate.js";
import { makeTempDir } from "./support/temp-workspace.js";

const model = fakeModel();

function lastToolResult(agent: Agent): ToolResultMessage | undefined {
  return agent.state.messages
    .filter((m): m is ToolResultMessage => (m as { role?: string }).role === "toolResult")
    .at(-1);
}
function text(r: ToolResultMessage | undefined): string {
  return (r?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
}

describe("approvals and trust tiers through the Agent", () => {
  let root: { dir: string; cleanup: () => void };
  beforeEach(() => {
    root = makeTempDir();
  });
  afterEach(() => root.cleanup());

  const writeCall = () =>
    scriptedStreamFn([{ toolCalls: [{ name: "write_file", args: { path: "out.txt", content: "hi" } }] }, "done"]);

  it("waits for approve(id) before running the call", async () => {
    const agent = new Agent({
      model,
      streamFn: writeCall(),
      tools: createBuiltinTools({ workspaceRoot: root.dir }),
      preDispatchPolicies: [createApprovalPolicy()],
    });
    const asked: { reason: string; name: string }[] = [];
    agent.subscribe((e) => {
      if (e.type !== "approval_required") return;
      asked.push({ reason: e.reason, name: e.toolCall.name });
      expect(existsSync(join(root.dir, "out.txt"))).toBe(false);
      agent.approve(e.approvalId);
    });
    await agent.prompt("write it");
    expect(asked).toEqual([{ name: "write_file", reason: 'Allow write_file with {"path":"out.txt","content":"hi"}?' }]);
    expect(existsSync(join(root.dir, "out.txt"))).toBe(true);
    expect(lastToolResult(agent)?.isError).toBe(false);
  });

  it("deny(id) refuses the call and the model sees the reason", async () => {
    const agent = new Agent({
      model,
      streamFn: writeCall(),
      tools: createBuiltinTools({ workspaceRoot: root.dir }),
      preDispatchPolicies: [createApprovalPolicy()],
    });
    agent.subscribe((e) => {
      if (e.type === "approval_required") agent.deny(e.approvalId, "not today");
    });
    await agent.prompt("write it");
    expect(existsSync(join(root.dir, "out.txt"))).toBe(false);
    expect(lastToolResult(agent)?.isError).toBe(true);
    expect(text(lastToolResult(agent))).toContain("not today");
  });

  it("an unanswered approval is denied at its timeout", async () => {
    const agent = new Agent({
      model,
      streamFn: writeCall(),
      tools: createBuiltinTools({ workspaceRoot: root.dir }),
      preDispatchPolicies: [createApprovalPolicy({ timeoutMs: 20 })],
    });
    await agent.prompt("write it");
    expect(existsSync(join(root.dir, "out.txt"))).toBe(false);
    expect(lastToolResult(agent)?.isError).toBe(true);
  });

  it("a guest's exec call is refused with a reason; the owner's runs", async () => {
    const run = async (tier: string) => {
      const agent = new Agent({
        model,
        streamFn: scriptedStreamFn([{ toolCalls: [{ name: "exec", args: { command: "echo ran" } }] }, "done"]),
        tools: createBuiltinTools({ workspaceRoot: root.dir }),
        preDispatchPolicies: [createToolPolicyGate()],
        run: { meta: { trustTier: tier } },
      });
      await agent.prompt("run it");
      return lastToolResult(agent);
    };
    const guest = await run("guest");
    expect(guest?.isError).toBe(true);
    expect(text(guest)).toContain('Tool "exec" is not available to a guest user.');
    const owner = await run("owner");
    expect(text(owner)).toBe("Exit code 0.\nran\n");
  });
});
