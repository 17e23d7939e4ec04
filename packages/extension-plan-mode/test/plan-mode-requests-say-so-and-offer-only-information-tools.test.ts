import { defineTool, type StreamContext } from "@chorus/core";
import type { Script } from "@chorus/core/testing";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { planModeExtension } from "../src/plan-mode-extension.js";
import { PLAN_MODE_SYSTEM_PROMPT } from "../src/plan-mode-request.js";
import { execProbe } from "./fixtures/exec-probe.js";

const AGENT_PROMPT = "You are Chorus, a careful engineer.";
const config = {
  agents: [{ id: "main", model: "fake-model", systemPrompt: AGENT_PROMPT }],
  channels: [{ channel: "test", admins: ["owner"] }],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };

const readFile = defineTool({
  name: "read_file",
  description: "reads a file",
  parameters: z.object({ path: z.string() }),
  category: "info",
  execute: async () => ({ content: [{ type: "text", text: "contents" }] }),
});

/** What a model request offered: its system prompt and its tools' names. */
function offered(context: StreamContext) {
  return { systemPrompt: context.systemPrompt, tools: (context.tools ?? []).map((tool) => tool.name).sort() };
}

describe("a session's model requests in plan mode (seed 003 steps 12 and 14)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(script: Script) {
    const probe = execProbe();
    h = await startHarness({
      config,
      script,
      gateway: {
        agents: { main: { tools: [probe.tool, readFile] } },
        extensions: [planModeExtension({ agents: ["main"] })],
      },
    });
    return { h, probe };
  }

  it("say plan mode is on and offer only information tools and propose_plan; /plan off gives the same request as before", async () => {
    const { h } = await start(() => "ok");
    await h.send({ ...owner, text: "before" });
    await h.send({ ...owner, text: "/plan" });
    await h.send({ ...owner, text: "look at the parser" });
    await h.send({ ...owner, text: "/plan off" });
    await h.send({ ...owner, text: "after" });
    const [before, during, after] = h.streamFn.calls.map((call) => offered(call.context));

    expect(before).toEqual({ systemPrompt: AGENT_PROMPT, tools: ["exec", "propose_plan", "read_file"] });
    expect(during?.tools).toEqual(["propose_plan", "read_file"]);
    expect(during?.systemPrompt).toBe(`${AGENT_PROMPT}\n\n${PLAN_MODE_SYSTEM_PROMPT}`);
    expect(during?.systemPrompt).toContain("call propose_plan with your plan");
    // Outside plan mode the request is the agent's own again: the cached prefix is the one before plan mode.
    expect(after).toEqual(before);
  });

  it("a plan approved mid-run gives the run's next call every tool and the agent's own prompt", async () => {
    const { h, probe } = await start((context) => {
      const last = context.messages.at(-1) as { role: string; content: unknown };
      const said = JSON.stringify(last.content);
      if (last.role !== "toolResult") return { toolCalls: [{ name: "propose_plan", args: { plan: "1. make it" } }] };
      if (said.includes("approved the plan")) return { toolCalls: [{ name: "exec", args: { command: "make" } }] };
      return "done";
    });
    await h.send({ ...owner, text: "/plan" });
    await h.channel.inject({ ...owner, text: "build it" });
    await vi.waitFor(() => expect(h.channel.transcript("owner").at(-1)).toContain("**Proposed plan**"), {
      timeout: 5_000,
    });
    await h.send({ ...owner, text: "/plan approve" });
    const [proposing, acting, reporting] = h.streamFn.calls.map((call) => offered(call.context));
    expect(proposing?.tools).toEqual(["propose_plan", "read_file"]);
    expect(acting).toEqual({ systemPrompt: AGENT_PROMPT, tools: ["exec", "propose_plan", "read_file"] });
    expect(reporting?.tools).toContain("exec");
    expect(probe.commands).toEqual(["make"]);
    expect(h.channel.transcript("owner").at(-1)).toBe("done");
  });

  it("a call the model makes to a tool it was not offered is still refused by the gate", async () => {
    const { h, probe } = await start((context) => {
      const last = context.messages.at(-1) as { role: string; content: unknown };
      if (last.role !== "toolResult") return { toolCalls: [{ name: "exec", args: { command: "rm -rf build" } }] };
      return `result: ${JSON.stringify(last.content)}`;
    });
    await h.send({ ...owner, text: "/plan" });
    await h.send({ ...owner, text: "clean up" });
    expect(probe.commands).toEqual([]);
    expect(h.channel.transcript("owner").at(-1)).toContain("Plan mode: only information (read-only) tools may run");
  });
});
