import type { PreDispatchPolicy, StreamContext } from "@chorus/core";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { execProbe } from "./fixtures/exec-probe.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { subagentScript } from "./fixtures/subagent-script.js";

/** The sub-agent's task "run-it" calls exec; everything else is the usual sub-agent script. */
function script(context: StreamContext) {
  const last = context.messages.at(-1) as { role: string; content: unknown };
  const said = JSON.stringify(last.content);
  if (last.role === "user" && said.includes("run-it") && !said.includes("spawn")) {
    return { toolCalls: [{ name: "exec", args: { command: "rm -rf build" } }] };
  }
  return subagentScript()(context);
}

describe("a sub-agent's tool calls", () => {
  let h: Harness;
  afterEach(async () => h.close());

  /** The owner in a group asks for a sub-agent whose task runs exec; the agent has `policies`. */
  async function ownerSpawnsExec(policies: PreDispatchPolicy[]): Promise<string[]> {
    const probe = execProbe();
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", admins: ["owner"], groups: { g1: { requireMention: false } } }],
      },
      script,
      gateway: { agents: { main: { subagents: { helper: { description: "helps", tools: [probe.tool] } }, policies } } },
    });
    await h.send({
      chatType: "group",
      chatId: "g1",
      text: "spawn wait run-it",
      sender: { id: "owner", name: "Owner" },
    });
    await h.gateway.idle();
    return probe.commands;
  }

  it("run when the agent's policies allow them (the probe works)", async () => {
    expect(await ownerSpawnsExec([])).toEqual(["rm -rf build"]);
  });

  it("face the agent's approval policy: a call that would ask is refused in the child, never run unasked", async () => {
    expect(await ownerSpawnsExec([createApprovalPolicy({ require: ["exec"] })])).toEqual([]);
    expect(h.channel.transcript("g1").at(-1)).toMatch(/^done: /);
  });
});
