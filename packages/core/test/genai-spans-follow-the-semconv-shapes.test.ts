import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";
import { echoTool } from "./support/test-tools.js";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterEach(() => exporter.reset());
afterAll(async () => {
  trace.disable();
  context.disable();
  await provider.shutdown();
});

const model = fakeModel();
const byName = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);

describe("the content of GenAI spans", () => {
  it("is recorded as the semantic conventions' messages: role, parts, finish_reason", async () => {
    const agent = new Agent({
      model,
      systemPrompt: "You are terse.",
      streamFn: scriptedStreamFn([
        { text: "let me echo", toolCalls: [{ id: "call_1", name: "echo", args: { text: "pong" } }] },
        { text: "it said pong" },
      ]),
      tools: [echoTool],
      telemetry: { agentName: "main", captureContent: true },
    });
    await agent.prompt("ping");
    const [first, second] = byName(`chat ${model.id}`);
    expect(JSON.parse(String(first?.attributes["gen_ai.system_instructions"]))).toEqual([
      { type: "text", content: "You are terse." },
    ]);
    expect(JSON.parse(String(first?.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "ping" }] },
    ]);
    expect(JSON.parse(String(first?.attributes["gen_ai.output.messages"]))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "text", content: "let me echo" },
          { type: "tool_call", id: "call_1", name: "echo", arguments: { text: "pong" } },
        ],
        finish_reason: "tool_call",
      },
    ]);
    expect(JSON.parse(String(second?.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "ping" }] },
      {
        role: "assistant",
        parts: [
          { type: "text", content: "let me echo" },
          { type: "tool_call", id: "call_1", name: "echo", arguments: { text: "pong" } },
        ],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "pong" }] },
    ]);
    expect(JSON.parse(String(second?.attributes["gen_ai.output.messages"]))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "it said pong" }], finish_reason: "stop" },
    ]);
  });
});

describe("the run's invoke_agent span", () => {
  it("is the active span while the run's event handlers run, and execute_tool's while its tool runs", async () => {
    const active: Array<{ event: string; span: string | undefined }> = [];
    const agent = new Agent({
      model,
      streamFn: scriptedStreamFn([
        { toolCalls: [{ id: "call_1", name: "echo", args: { text: "x" } }] },
        { text: "ok" },
      ]),
      tools: [
        {
          ...echoTool,
          execute: async (args, ctx) => {
            active.push({ event: "tool", span: trace.getActiveSpan()?.spanContext().spanId });
            return echoTool.execute(args, ctx);
          },
        },
      ],
      telemetry: { agentName: "main" },
    });
    agent.subscribe((event: AgentEvent) => {
      active.push({ event: event.type, span: trace.getActiveSpan()?.spanContext().spanId });
    });
    await agent.prompt("go");
    const [run] = byName("invoke_agent main");
    const [tool] = byName("execute_tool echo");
    const runId = run?.spanContext().spanId;
    expect(runId).toBeDefined();
    const events = active.filter((entry) => entry.event !== "tool");
    expect(events.map((entry) => entry.event)).toContain("message_end");
    expect(events.filter((entry) => entry.span !== runId)).toEqual([]);
    expect(active.find((entry) => entry.event === "tool")?.span).toBe(tool?.spanContext().spanId);
  });
});
