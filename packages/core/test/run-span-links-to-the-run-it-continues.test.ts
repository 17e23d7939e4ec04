import { context, type Link, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, expect, it } from "vitest";
import { agentLoop } from "../src/index.js";
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
