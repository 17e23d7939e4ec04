import type { IncomingMessage, ServerResponse } from "node:http";
import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { type IMetricReader, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, type SpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { TelemetrySettings } from "./telemetry-env.js";

/** Serves `GET /metrics` (Prometheus text). */
export type MetricsHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The bot's registered OpenTelemetry SDK. */
export interface BotTelemetry {
  /** `/metrics`, when Prometheus output is on. */
  readonly metricsHandler: MetricsHandler | undefined;
  /** Whether spans are exported. */
  readonly tracing: boolean;
  /** Flushes and unregisters everything. */
  shutdown(): Promise<void>;
}

/** Extra span processors (tests add an in-memory exporter). */
export interface BotTelemetryExtras {
  readonly spanProcessors?: readonly SpanProcessor[];
}

/**
 * Registers the OpenTelemetry SDK the settings ask for: a tracer provider exporting over OTLP/HTTP, a meter provider
 * read by the Prometheus exporter (served on the bot's HTTP server, never its own port) and/or exported over OTLP,
 * and, when spans are recorded, the async context manager that carries a turn's trace through its awaits.
 * Contract: with `disabled`, or nothing to export, registers nothing (the libraries' telemetry stays a no-op).
 */
export function startBotTelemetry(settings: TelemetrySettings, extras: BotTelemetryExtras = {}): BotTelemetry {
  const spanProcessors: SpanProcessor[] = [...(extras.spanProcessors ?? [])];
  if (settings.otlpTraces) spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }));
  const readers: IMetricReader[] = [];
  const prometheus = settings.prometheus ? new PrometheusExporter({ preventServerStart: true }) : undefined;
  if (prometheus !== undefined) readers.push(prometheus);
  if (settings.otlpMetrics) {
    readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
  }
  if (settings.disabled || (spanProcessors.length === 0 && readers.length === 0)) {
    return { metricsHandler: undefined, tracing: false, shutdown: async () => {} };
  }
  const resource = resourceFromAttributes({ "service.name": settings.serviceName }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  // The async context carries a turn's trace through its awaits; with metrics alone nothing reads it, and every
  // `context.with` on the message path would pay for it (issue #33's profile).
  if (spanProcessors.length > 0) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = spanProcessors.length > 0 ? new TracerProvider({ resource, spanProcessors }) : undefined;
  if (tracerProvider !== undefined) trace.setGlobalTracerProvider(tracerProvider);
  const meterProvider = readers.length > 0 ? new MeterProvider({ resource, readers }) : undefined;
  if (meterProvider !== undefined) metrics.setGlobalMeterProvider(meterProvider);
  return {
    metricsHandler:
      prometheus === undefined
        ? undefined
        : (request, response) => prometheus.getMetricsRequestHandler(request, response),
    tracing: tracerProvider !== undefined,
    shutdown: async () => {
      await Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}
