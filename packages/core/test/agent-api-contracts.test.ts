import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  Agent,
  AgentBusyError,
  agentLoopContinue,
  defineTool,
  InvalidAgentConfigError,
  InvalidContinueError,
  InvalidToolDefinitionError,
  toLlmTool,
} from "../src/index.js";
import { assistantText, fakeModel, scriptedStreamFn, toolResult, userMessage } from "../src/testing/index.js";
import { echoTool, gateTool, textOf } from "./support/test-tools.js";

const model = fakeModel();

describe("Agent API contracts", () => {
  it("prompt() while running is a typed error, not a silent queue", async () => {
    const gate = gateTool("gate");
    const agent = new Agent({
      model,
      streamFn: scriptedStreamFn([{ toolCalls: [{ name: "gate", args: { id: "a" } }] }, "ok"]),
      tools: [gate.tool],
    });
    const run = agent.prompt("first");
    expect(agent.state.isRunning).toBe(true);
    expect(() => agent.prompt("second")).toThrow(AgentBusyError);
    expect(() => agent.continue()).toThrow(AgentBusyError);
    expect(() => agent.reset()).toThrow(AgentBusyError);
    await vi.waitFor(() => expect(agent.state.pendingToolCalls.size).toBe(1));
    gate.release("a");
    await run;
    await agent.waitForIdle();
    expect(agent.state.isRunning).toBe(false);
    expect(agent.state.pendingToolCalls.size).toBe(0);
  });

  it("continue() resumes after tool results and refuses an assistant-final transcript", async () => {
    const streamFn = scriptedStreamFn(["resumed"]);
    const agent = new Agent({ model, streamFn, messages: [userMessage("q")] });
    await agent.continue();
    expect(textOf(agent.state.messages.at(-1))).toBe("resumed");
    expect(() => agent.continue()).toThrow(InvalidContinueError);
    agent.followUp("one more");
    expect(() => agent.continue()).not.toThrow();
    await agent.waitForIdle();
  });

  it("agentLoopContinue refuses an empty context and one ending with an assistant message", () => {
    const config = { model, streamFn: scriptedStreamFn([]) };
    expect(() => agentLoopContinue({ messages: [] }, config)).toThrow(InvalidContinueError);
    expect(() => agentLoopContinue({ messages: [userMessage("a"), assistantText("b")] }, config)).toThrow(
      InvalidContinueError,
    );
    expect(() => agentLoopContinue({ messages: [toolResult("c", "t", "r")] }, config)).not.toThrow();
  });

  it("reset() clears transcript, error and usage; the run metadata reaches tools", async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      name: "probe",
      description: "records ctx.run",
      parameters: z.object({}),
      category: "info",
      execute: (_args, ctx) => {
        seen.push(ctx.run);
        return { content: [] };
      },
    });
    const agent = new Agent({
      model,
      streamFn: scriptedStreamFn([{ toolCalls: [{ name: "probe", args: {} }], usage: { input: 10 } }, "ok"]),
      tools: [probe],
      run: { depth: 2, sessionId: "s-1", meta: { who: "tester" }, newRunId: () => "run-42" },
    });
    await agent.prompt("go");
    expect(seen).toEqual([{ runId: "run-42", depth: 2, sessionId: "s-1", meta: { who: "tester" } }]);
    expect(agent.state.usage.input).toBe(10);
    agent.reset();
    expect(agent.state.messages).toEqual([]);
    expect(agent.state.usage.input).toBe(0);
  });

  it("prompt() accepts text with images and ready messages", async () => {
    const streamFn = scriptedStreamFn(["a", "b"]);
    const agent = new Agent({ model, streamFn, systemPrompt: "be brief" });
    await agent.prompt("look", [{ type: "image", data: "AAAA", mimeType: "image/png" }]);
    expect(streamFn.calls[0]?.context.systemPrompt).toBe("be brief");
    expect(streamFn.calls[0]?.context.messages[0]?.content).toEqual([
      { type: "text", text: "look" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
    await agent.prompt([userMessage("x"), userMessage("y")]);
    expect(streamFn.calls[1]?.context.messages.slice(-2).map(textOf)).toEqual(["x", "y"]);
  });
});

describe("config validation", () => {
  it("rejects an unusable config with a typed error naming the field", () => {
    const streamFn = scriptedStreamFn([]);
    expect(() => new Agent({ model, streamFn, maxTurns: 0 })).toThrow(/maxTurns must be a whole number/);
    expect(() => new Agent({ model, streamFn: undefined as never })).toThrow(InvalidAgentConfigError);
    expect(() => new Agent({ model, streamFn, tools: [echoTool, echoTool] })).toThrow(/two tools are named "echo"/);
  });
});

describe("defineTool", () => {
  it("computes the JSON Schema for the model once, from the zod schema", () => {
    expect(toLlmTool(echoTool)).toEqual({
      name: "echo",
      description: "Echoes its text",
      parameters: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
    });
    expect(toLlmTool(echoTool)).toBe(toLlmTool(echoTool));
  });

  it("rejects a bad name or category with a typed error", () => {
    const base = { description: "d", parameters: z.object({}), execute: () => ({ content: [] }) };
    expect(() => defineTool({ ...base, name: "has space", category: "info" })).toThrow(InvalidToolDefinitionError);
    expect(() => defineTool({ ...base, name: "ok", category: "weird" as "info" })).toThrow(/unknown category "weird"/);
  });
});
