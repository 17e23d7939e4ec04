import { context, type Link, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, expect, it } from "vitest";
import { agentLoop, startInvokeAgentSpan } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect } from "./support/test-tools.js";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  context.disable();
  await provider.shutdown();
});

it("names its invoke_agent span in agent_start, and a later run links its own span to it", async () => {
  const model = fakeModel();
  const run = (links?: () => readonly Link[]) =>
    collect(
      agentLoop(
        [userMessage("hi")],
        { messages: [] },
        {
          model,
          streamFn: scriptedStreamFn(["hello"]),
          telemetry: { agentName: "main", ...(links === undefined ? {} : { links }) },
        },
      ),
    );
  const first = (await run())[0];
  if (first?.type !== "agent_start" || first.spanContext === undefined) throw new Error("no span context");
  const earlier = first.spanContext;
  const [firstSpan] = exporter.getFinishedSpans().filter((span) => span.name === "invoke_agent main");
  expect(firstSpan?.spanContext()).toEqual(earlier);

  exporter.reset();
  await run(() => [{ context: earlier, attributes: { "chorus.link.type": "resumes" } }]);
  const [later] = exporter.getFinishedSpans().filter((span) => span.name === "invoke_agent main");
  expect(later?.links).toEqual([
    { context: earlier, attributes: { "chorus.link.type": "resumes" }, droppedAttributesCount: 0 },
  ]);
  expect(later?.spanContext().traceId).not.toBe(earlier.traceId);
});

it("runs under a span started ahead of it (to store first), with its links, and ends it with the run's attributes", async () => {
  exporter.reset();
  const earlier = { traceId: "1".repeat(32), spanId: "2".repeat(16), traceFlags: 1, isRemote: true };
  const telemetry = { agentName: "helper", links: () => [{ context: earlier }] };
  const span = startInvokeAgentSpan(telemetry);
  if (span === undefined) throw new Error("not recorded");
  // Nothing ends it before the run does.
  expect(exporter.getFinishedSpans()).toEqual([]);
  const events = await collect(
    agentLoop(
      [userMessage("hi")],
      { messages: [] },
      {
        model: fakeModel(),
        streamFn: scriptedStreamFn(["hello"]),
        run: { runId: "run-7" },
        telemetry: { ...telemetry, span },
      },
    ),
  );
  const start = events[0];
  expect(start?.type === "agent_start" ? start.spanContext : undefined).toEqual(span.spanContext());
  const runs = exporter.getFinishedSpans().filter((ended) => ended.name === "invoke_agent helper");
  expect(runs).toHaveLength(1);
  expect(runs[0]?.spanContext()).toEqual(span.spanContext());
  expect(runs[0]?.links.map((link) => link.context)).toEqual([earlier]);
  expect(runs[0]?.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "chorus.run.id": "run-7" });
  const [chat] = exporter.getFinishedSpans().filter((ended) => ended.name.startsWith("chat "));
  expect(chat?.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
});
