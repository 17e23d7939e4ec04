import { PassThrough } from "node:stream";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, MemorySessionStore, TestChannel } from "@chorus/gateway";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { afterEach, expect, it } from "vitest";
import { createBotLogger } from "../src/logging/bot-logger.js";
import { logRunEvents } from "../src/runtime/run-event-log.js";
import { type BotTelemetry, startBotTelemetry } from "../src/telemetry/bot-telemetry.js";
import { telemetrySettingsOf } from "../src/telemetry/telemetry-env.js";

// One SDK per file: the libraries' tracers keep the provider registered first (see captureTelemetry in the testkit).
let telemetry: BotTelemetry | undefined;
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
});

it("writes every log line of a turn — the run log's included — with its invoke_agent span's ids", async () => {
  const exporter = new InMemorySpanExporter();
  telemetry = startBotTelemetry(telemetrySettingsOf({ OTEL_METRICS_EXPORTER: "none" }), {
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const logger = createBotLogger({ level: "debug", format: "json", destination: out, isTTY: false });
  const model = fakeModel();
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const gateway = new Gateway({
    config: {
      agents: [{ id: "main", model: model.id }],
      channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"] }],
    },
    store: new MemorySessionStore(),
    channels: [channel],
    streamFn: scriptedStreamFn([{ toolCalls: [{ name: "nope" }] }, "done"]),
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    logger,
  });
  logRunEvents(gateway.events, logger);
  await gateway.start();
  try {
    await channel.inject({ text: "question" });
    await gateway.idle();
    await expect.poll(() => channel.transcript("dm-user-1").at(-1), { timeout: 5_000 }).toBe("done");
  } finally {
    await gateway.stop(0);
  }
  await new Promise((resolve) => setImmediate(resolve));
  const run = exporter.getFinishedSpans().find((span) => span.name === "invoke_agent main");
  expect(run).toBeDefined();
  const lines = chunks
    .join("")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const turnLines = lines.filter((line) => line.runId !== undefined);
  expect(turnLines.map((line) => line.msg)).toEqual(["run started", "tool start", "tool end", "run ended"]);
  for (const line of turnLines) {
    expect(line, String(line.msg)).toMatchObject({
      trace_id: run?.spanContext().traceId,
      span_id: run?.spanContext().spanId,
    });
  }
});
