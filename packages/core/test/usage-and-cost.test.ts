import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, agentLoop, defineTool, emptyUsage } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, ofType } from "./support/test-tools.js";

const model = fakeModel();
const usage = (input: number, output: number) => ({ usage: { input, output } });

describe("usage and cost", () => {
  it("accumulate over every model call of a run, in agent_end", async () => {
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "echo", args: { text: "x" } }], ...usage(1_000, 100) },
      { text: "done", ...usage(2_000, 200) },
    ]);
    const events = await collect(
      agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn, tools: [echoTool] }),
    );
    const end = ofType(events, "agent_end")[0];
    expect(end?.usage).toMatchObject({ input: 3_000, output: 300, totalTokens: 3_300 });
    expect(end?.usage.cost.total).toBeCloseTo((3_000 * 1 + 300 * 2) / 1e6);
  });

  it("accumulate across runs in Agent.state, with cost as the total", async () => {
    const streamFn = scriptedStreamFn([
      { text: "a", ...usage(1_000_000, 0) },
      { text: "b", ...usage(0, 1_000_000) },
    ]);
    const agent = new Agent({ model, streamFn });
    await agent.prompt("one");
    expect(agent.state.cost).toBeCloseTo(1);
    await agent.prompt("two");
    expect(agent.state.cost).toBeCloseTo(3);
    expect(agent.state.usage).toMatchObject({ input: 1_000_000, output: 1_000_000 });
  });

  it("add a child run's usage to the parent's run from inside a tool, and via Agent.addUsage", async () => {
    const child = { ...emptyUsage(), input: 500, totalTokens: 500 };
    child.cost.total = 0.25;
    const spawn = defineTool({
      name: "spawn",
      description: "runs a sub-agent",
      parameters: z.object({}),
      category: "exec",
      execute: async (_args, ctx) => {
        ctx.addUsage(child);
        return { content: [{ type: "text", text: "child finished" }] };
      },
    });
    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "spawn", args: {} }] }, "ok"]);
    const agent = new Agent({ model, streamFn, tools: [spawn] });
    const result = await agent.prompt("delegate");
    expect(result.usage.cost.total).toBeCloseTo(0.25);
    expect(agent.state.cost).toBeCloseTo(0.25);
    agent.addUsage(child);
    expect(agent.state.cost).toBeCloseTo(0.5);
    expect(agent.state.usage.input).toBe(1_000);
  });
});
