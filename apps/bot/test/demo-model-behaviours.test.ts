import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type AgentMessage } from "@chorus/core";
import { type ChildRunner, createBuiltinTools, createSubagents, SubagentSlots } from "@chorus/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoModel, demoStreamFn } from "../src/demo/demo-model.js";
import { ensureDemoWorkspace } from "../src/demo/demo-workspace.js";

let workspace: string;
beforeEach(async () => {
  workspace = await ensureDemoWorkspace(await mkdtemp(join(tmpdir(), "chorus-demo-")));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** Runs a sub-agent as its own Agent on the demo model (the gateway does the same with its session store). */
const childRunner: ChildRunner = async (request) => {
  const child = new Agent({
    model: demoModel(),
    streamFn: demoStreamFn({ tokenDelayMs: 0 }),
    tools: request.tools,
    systemPrompt: request.systemPrompt,
    preDispatchPolicies: request.preDispatchPolicies,
  });
  const result = await child.prompt(request.task);
  return { status: "completed", text: lastText(child.state.messages), usage: result.usage };
};

/** An Agent on the demo model with the built-in tools and a researcher sub-agent, as the bot sets it up. */
function demoAgent(): Agent {
  const model = demoModel();
  const streamFn = demoStreamFn({ tokenDelayMs: 0 });
  const tools = createBuiltinTools({ workspaceRoot: workspace });
  const readOnly = tools.filter((tool) => ["list_dir", "read_file"].includes(tool.name));
  const subagents = createSubagents({
    agents: { researcher: { description: "reads the workspace", tools: readOnly } },
    runChild: childRunner,
    slots: new SubagentSlots(),
  });
  return new Agent({
    model,
    streamFn,
    tools: [...tools, ...subagents.tools],
    preDispatchPolicies: [subagents.depthPolicy],
  });
}

function lastText(messages: readonly AgentMessage[]): string {
  const last = [...messages].reverse().find((message) => message.role === "assistant");
  if (last?.role !== "assistant") return "";
  return last.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

function toolCalls(messages: readonly AgentMessage[]): string[] {
  return messages.flatMap((message) =>
    message.role === "assistant" ? message.content.filter((b) => b.type === "toolCall").map((b) => b.name) : [],
  );
}

describe("the offline demo model", () => {
  it("greets, says it is a demo and how to plug in a real model", async () => {
    const agent = demoAgent();
    await agent.prompt("Hello there");
    const text = lastText(agent.state.messages);
    expect(text).toContain("Hello! I'm **Chorus**");
    expect(text).toContain("demo model");
    expect(text).toContain("ANTHROPIC_API_KEY");
  });

  it("answers the user's message, not the system reminder attached after it", async () => {
    const reminders = {
      sources: [() => [{ kind: "time_passed", text: "3 hours passed since the previous message." }]],
    };
    const agent = new Agent({ model: demoModel(), streamFn: demoStreamFn({ tokenDelayMs: 0 }), reminders });
    await agent.prompt("Hello there");
    expect(lastText(agent.state.messages)).toContain("Hello! I'm **Chorus**");
  });
  it("answers help with what it can do and how to connect a real model", async () => {
    const agent = demoAgent();
    await agent.prompt("help");
    const text = lastText(agent.state.messages);
    expect(text).toContain("/agents");
    expect(text).toContain("OPENAI_API_KEY");
    expect(toolCalls(agent.state.messages)).toEqual([]);
  });

  it("really calls current_time and reports what the tool said", async () => {
    const agent = demoAgent();
    await agent.prompt("what time is it?");
    expect(toolCalls(agent.state.messages)).toEqual(["current_time"]);
    const result = agent.state.messages.find((message) => message.role === "toolResult");
    expect(result?.role === "toolResult" && result.isError).toBe(false);
    expect(lastText(agent.state.messages)).toMatch(/current_time.*says[\s\S]*\d{4}-\d{2}-\d{2}/);
  });

  it("lists and reads files of its workspace with list_dir and read_file", async () => {
    const agent = demoAgent();
    await agent.prompt("list files");
    expect(lastText(agent.state.messages)).toContain("welcome.md");
    await agent.prompt("read welcome.md");
    expect(toolCalls(agent.state.messages)).toEqual(["list_dir", "read_file"]);
    expect(lastText(agent.state.messages)).toContain("Welcome to Chorus");
  });

  it("spawns a researcher sub-agent that uses tools, and relays its findings", async () => {
    const agent = demoAgent();
    await agent.prompt("research chorus");
    expect(toolCalls(agent.state.messages)).toEqual(["spawn_agent"]);
    const text = lastText(agent.state.messages);
    expect(text).toContain("My sub-agent reported back");
    expect(text).toContain("Research findings");
    expect(text).toContain("notes"); // the child listed the workspace
  });

  it("is deterministic: the same conversation gives the same transcript text", async () => {
    const run = async () => {
      const agent = demoAgent();
      await agent.prompt("hi");
      await agent.prompt("something else entirely");
      return agent.state.messages.map((message) => (message.role === "assistant" ? lastText([message]) : message.role));
    };
    expect(await run()).toEqual(await run());
  });
});
