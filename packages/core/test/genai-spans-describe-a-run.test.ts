import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, agentLoop, defineTool } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool } from "./support/test-tools.js";

const SECRET = "sk-live-0123456789abcdef";
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
const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("GenAI spans of a run", () => {
  it("nest chat and execute_tool spans under invoke_agent, with usage and finish reasons", async () => {
    const streamFn = scriptedStreamFn([
      {
        toolCalls: [{ id: "call_1", name: "echo", args: { text: SECRET } }],
        usage: { input: 100, output: 10, cacheRead: 40 },
      },
      { text: "done", usage: { input: 200, output: 20 } },
    ]);
    await collect(
      agentLoop(
        [userMessage(`my key is ${SECRET}`)],
        { messages: [] },
        {
          model,
          streamFn,
          tools: [echoTool],
          getApiKey: () => SECRET,
          telemetry: { agentName: "main" },
        },
      ),
    );
    const spans = exporter.getFinishedSpans();
    const [agent] = byName(spans, "invoke_agent main");
    const chats = byName(spans, `chat ${model.id}`);
    const [tool] = byName(spans, "execute_tool echo");
    expect(agent?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "main",
      "gen_ai.usage.input_tokens": 340,
      "gen_ai.usage.output_tokens": 30,
      "chorus.agent.end_reason": "completed",
    });
    expect(chats).toHaveLength(2);
    for (const chat of chats) expect(parentOf(chat)).toBe(agent?.spanContext().spanId);
    expect(chats[0]?.kind).toBe(2); // SpanKind.CLIENT
    expect(chats[0]?.attributes).toMatchObject({
      "gen_ai.request.model": model.id,
      "gen_ai.response.model": model.id,
      "gen_ai.usage.input_tokens": 140,
      "gen_ai.usage.cache_read.input_tokens": 40,
      "gen_ai.response.finish_reasons": ["tool_call"],
    });
    expect(chats[1]?.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    expect(parentOf(tool as ReadableSpan)).toBe(agent?.spanContext().spanId);
    expect(tool?.attributes).toMatchObject({ "gen_ai.tool.call.id": "call_1", "chorus.tool.outcome": "success" });
    // Content is off by default: neither the prompt, the tool arguments nor the API key reach any attribute.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(SECRET);
  });

  it("make a run started inside a tool call a child of that call's span", async () => {
    const childStream = scriptedStreamFn([{ text: "child answer" }]);
    const spawn = defineTool({
      name: "spawn",
      description: "runs a child agent",
      parameters: z.object({ task: z.string() }),
      category: "exec",
      execute: async ({ task }) => {
        await collect(
          agentLoop(
            [userMessage(task)],
            { messages: [] },
            { model, streamFn: childStream, telemetry: { agentName: "helper" } },
          ),
        );
        return { content: [{ type: "text" as const, text: "ok" }] };
      },
    });
    const agent = new Agent({
      model,
      streamFn: scriptedStreamFn([{ toolCalls: [{ name: "spawn", args: { task: "t" } }] }, { text: "done" }]),
      tools: [spawn],
      telemetry: { agentName: "main" },
    });
    await agent.prompt("go");
    const spans = exporter.getFinishedSpans();
    const [tool] = byName(spans, "execute_tool spawn");
    const [child] = byName(spans, "invoke_agent helper");
    const [parent] = byName(spans, "invoke_agent main");
    expect(parentOf(child as ReadableSpan)).toBe(tool?.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(parent?.spanContext().traceId);
  });

  it("records content only when asked to", async () => {
    const streamFn = scriptedStreamFn([{ text: "hello there" }]);
    await collect(
      agentLoop(
        [userMessage("what is 2+2")],
        { messages: [] },
        { model, streamFn, telemetry: { captureContent: true } },
      ),
    );
    const [chat] = byName(exporter.getFinishedSpans(), `chat ${model.id}`);
    expect(chat?.attributes["gen_ai.input.messages"]).toContain("what is 2+2");
    expect(chat?.attributes["gen_ai.output.messages"]).toContain("hello there");
  });
});

describe("GenAI metrics of a run", () => {
  it("record token usage and operation duration per model call", async () => {
    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(meterProvider);
    try {
      const streamFn = scriptedStreamFn([{ text: "hi", usage: { input: 7, output: 3 } }]);
      await collect(agentLoop([userMessage("hi")], { messages: [] }, { model, streamFn }));
      const { resourceMetrics } = await reader.collect();
      const names = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((m) => m.descriptor.name));
      expect(names).toEqual(expect.arrayContaining(["gen_ai.client.token.usage", "gen_ai.client.operation.duration"]));
    } finally {
      metrics.disable();
      await meterProvider.shutdown();
    }
  });
});
