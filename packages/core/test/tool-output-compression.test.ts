import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Agent,
  type AgentEvent,
  defineTool,
  type PreDispatchPolicy,
  type ToolOutputCompressionConfig,
  type ToolResultMessage,
} from "../src/index.js";
import type { ScriptedTurn } from "../src/testing/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";
import { ofType, textOf } from "./support/test-tools.js";

const LONG_OUTPUT = Array.from({ length: 400 }, (_, i) => `line ${i}: compiling module ${i} ... ok`).join("\n");
const SUMMARY = "build ok: 400 modules compiled, exit code 0";

/** A tool named like the exec built-in, answering whatever text it is given. */
function outputTool(name: string) {
  return defineTool({
    name,
    description: `${name} returns its text`,
    parameters: z.object({ text: z.string() }),
    category: "exec",
    execute: ({ text }) => ({ content: [{ type: "text", text }], details: { exitCode: 0 } }),
  });
}

const isSummaryCall = (systemPrompt: string | undefined): boolean =>
  systemPrompt?.startsWith("You are a concise tool-output summarizer") === true;

/** A session whose model calls `tool` once with `text`, then answers "done"; summary calls get `summariser`. */
function setup(options: {
  taco?: ToolOutputCompressionConfig;
  tool?: string;
  text?: string;
  summariser?: ScriptedTurn;
  policies?: PreDispatchPolicy[];
  systemPrompt?: string;
  thinking?: string;
}) {
  const tool = options.tool ?? "exec";
  let mainCalls = 0;
  const streamFn = scriptedStreamFn((context) => {
    if (isSummaryCall(context.systemPrompt)) return options.summariser ?? SUMMARY;
    mainCalls++;
    if (mainCalls === 1) {
      return {
        ...(options.thinking === undefined ? {} : { thinking: options.thinking }),
        toolCalls: [{ name: tool, args: { text: options.text ?? LONG_OUTPUT } }],
      };
    }
    return "done";
  });
  const agent = new Agent({
    model: fakeModel(),
    streamFn,
    tools: [outputTool(tool)],
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    ...(options.taco === undefined ? {} : { toolOutputCompression: options.taco }),
    ...(options.policies === undefined ? {} : { preDispatchPolicies: options.policies }),
  });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  const summaryCalls = () => streamFn.calls.filter((call) => isSummaryCall(call.context.systemPrompt));
  const mainRequests = () => streamFn.calls.filter((call) => !isSummaryCall(call.context.systemPrompt));
  const toolResult = () => ofType(events, "tool_execution_end")[0]?.result as ToolResultMessage;
  const resultSentToModel = () =>
    mainRequests()[1]?.context.messages.find((m) => m.role === "toolResult") as ToolResultMessage;
  return { agent, streamFn, summaryCalls, mainRequests, toolResult, resultSentToModel };
}

describe("TACO tool-output compression", () => {
  it("summarises a large output of a compressible tool before it enters the transcript, tagged", async () => {
    const s = setup({ taco: { enabled: true } });
    await s.agent.prompt("build it");
    expect(s.summaryCalls()).toHaveLength(1);
    expect(textOf(s.summaryCalls()[0]!.context.messages[0])).toContain("line 399: compiling module 399");
    const sent = s.resultSentToModel();
    expect(textOf(sent)).toContain(SUMMARY);
    expect(textOf(sent)).not.toContain("line 399");
    expect(sent.compressed).toMatchObject({ by: "taco", model: "fake-model" });
    expect(sent.compressed!.rawTokens).toBeGreaterThan(2_000);
    // The tag keeps the raw output for the audit log; the app's details survive.
    expect(textOf({ content: sent.compressed!.raw })).toBe(LONG_OUTPUT);
    expect(s.toolResult().compressed?.by).toBe("taco");
    expect(s.toolResult().details).toEqual({ exitCode: 0 });
    const stored = s.agent.state.messages.find((m) => m.role === "toolResult") as ToolResultMessage;
    expect(stored.compressed?.by).toBe("taco");
  });

  it("is off by default", async () => {
    const s = setup({});
    await s.agent.prompt("build it");
    expect(s.summaryCalls()).toHaveLength(0);
    expect(textOf(s.resultSentToModel())).toBe(LONG_OUTPUT);
  });

  it("passes short outputs and tools outside the compressible set through untouched", async () => {
    const short = setup({ taco: { enabled: true }, text: "exit 0" });
    await short.agent.prompt("go");
    const other = setup({ taco: { enabled: true }, tool: "mcp__db__query" });
    await other.agent.prompt("go");
    expect(short.summaryCalls()).toHaveLength(0);
    expect(other.summaryCalls()).toHaveLength(0);
    expect(textOf(short.resultSentToModel())).toBe("exit 0");
    expect(textOf(other.resultSentToModel())).toBe(LONG_OUTPUT);
    expect(other.resultSentToModel().compressed).toBeUndefined();
  });

  it("uses the configured summariser model and threshold", async () => {
    const fast = fakeModel({ id: "fast-model" });
    const s = setup({
      taco: { enabled: true, model: fast, thresholdTokens: 10, targetTokens: 50 },
      text: "x".repeat(200),
    });
    await s.agent.prompt("go");
    expect(s.summaryCalls()[0]!.model.id).toBe("fast-model");
    expect(s.summaryCalls()[0]!.context.systemPrompt).toContain("under 50 tokens");
    expect(s.resultSentToModel().compressed?.model).toBe("fast-model");
  });

  describe("keeps the raw output on any failure", () => {
    const failures: [string, ScriptedTurn][] = [
      ["a provider error", { fault: "error", error: { kind: "server", message: "boom", status: 500 } }],
      ["a summary call that breaks the StreamFn contract", { fault: "throw", message: "kaput" }],
      ["an empty summary", ""],
      ["a summary longer than the output", "y".repeat(LONG_OUTPUT.length + 100)],
    ];
    for (const [name, summariser] of failures) {
      it(name, async () => {
        const s = setup({ taco: { enabled: true }, summariser });
        await s.agent.prompt("build it");
        expect(s.summaryCalls()).toHaveLength(1);
        expect(textOf(s.resultSentToModel())).toBe(LONG_OUTPUT);
        expect(s.resultSentToModel().compressed).toBeUndefined();
        expect(s.agent.state.error).toBeUndefined();
      });
    }

    it("a summary call that outlasts its timeout", async () => {
      const s = setup({ taco: { enabled: true, timeoutMs: 20 }, summariser: { fault: "hang" } });
      await s.agent.prompt("build it");
      expect(textOf(s.resultSentToModel())).toBe(LONG_OUTPUT);
      expect(s.resultSentToModel().compressed).toBeUndefined();
    });
  });

  it("NEVER compresses the result of a call a person approved (ask)", async () => {
    const ask: PreDispatchPolicy = () => ({ kind: "ask", reason: "exec needs approval" });
    const s = setup({ taco: { enabled: true }, policies: [ask] });
    s.agent.subscribe((event) => {
      if (event.type === "approval_required") s.agent.approve(event.approvalId);
    });
    await s.agent.prompt("build it");
    expect(s.summaryCalls()).toHaveLength(0);
    expect(textOf(s.resultSentToModel())).toBe(LONG_OUTPUT);
    expect(s.resultSentToModel().compressed).toBeUndefined();
  });

  it("NEVER touches thinking blocks or the system prompt", async () => {
    const systemPrompt = `You are helpful. ${"Rules. ".repeat(3_000)}`;
    const thinking = `Let me think. ${"hmm ".repeat(5_000)}`;
    const s = setup({ taco: { enabled: true, thresholdTokens: 100 }, text: "short", systemPrompt, thinking });
    await s.agent.prompt("go");
    expect(s.summaryCalls()).toHaveLength(0);
    const second = s.mainRequests()[1]!.context;
    expect(second.systemPrompt).toBe(systemPrompt);
    const assistant = second.messages.find((m) => m.role === "assistant");
    expect(assistant?.role === "assistant" && assistant.content.find((c) => c.type === "thinking")).toMatchObject({
      thinking,
    });
  });
});
