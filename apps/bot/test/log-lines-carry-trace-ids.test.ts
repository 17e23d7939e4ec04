import { PassThrough } from "node:stream";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { afterEach, describe, expect, it } from "vitest";
import { createBotLogger } from "../src/logging/bot-logger.js";
import { type BotTelemetry, startBotTelemetry } from "../src/telemetry/bot-telemetry.js";
import { telemetrySettingsOf } from "../src/telemetry/telemetry-env.js";

let telemetry: BotTelemetry | undefined;
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
});

function jsonLogger(): { logger: ReturnType<typeof createBotLogger>; lines: () => Record<string, unknown>[] } {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const logger = createBotLogger({ level: "info", format: "json", destination: out, isTTY: false });
  return {
    logger,
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("log lines and traces", () => {
  it("carry the active span's trace_id and span_id", async () => {
    telemetry = startBotTelemetry(telemetrySettingsOf({ OTEL_METRICS_EXPORTER: "none" }), {
      spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })],
    });
    const { logger, lines } = jsonLogger();
    const span = await trace.getTracer("test").startActiveSpan("work", async (active) => {
      await Promise.resolve();
      logger.info("inside");
      active.end();
      return active;
    });
    logger.info("outside");
    await new Promise((resolve) => setImmediate(resolve));
    const [inside, outside] = lines();
    expect(inside).toMatchObject({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
    expect(outside?.trace_id).toBeUndefined();
  });

  it("carry none without an SDK", async () => {
    const { logger, lines } = jsonLogger();
    trace.getTracer("test").startActiveSpan("work", (active) => {
      logger.info("inside");
      active.end();
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines()[0]?.trace_id).toBeUndefined();
  });
});
