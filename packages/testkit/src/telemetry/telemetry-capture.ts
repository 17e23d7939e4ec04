import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

/** What `captureTelemetry` registered, and what it caught. */
export interface TelemetryCapture {
  /** Every span ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** Forgets the spans caught so far. */
  reset(): void;
  /** Collects the metrics now (cumulative). */
  collectMetrics(): Promise<ResourceMetrics>;
  /** Unregisters the providers and the context manager. */
  stop(): Promise<void>;
}

/** The tracer side, registered once per process (module graph): see `captureTelemetry`. */
let tracing: { exporter: InMemorySpanExporter } | undefined;

function registerTracingOnce(): InMemorySpanExporter {
  if (tracing !== undefined) return tracing.exporter;
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  tracing = { exporter };
  return exporter;
}

/**
 * Registers a global OpenTelemetry tracer provider (an in-memory span exporter), meter provider and async context
 * manager, as a program's SDK setup would, for tests and benches. Contract: one capture at a time; `stop()` empties
 * the span exporter and unregisters the meter provider. The tracer provider and context manager stay registered
 * for the rest of the process (module graph), because the API's proxy tracers keep the first delegate they found:
 * a later capture reuses them (and starts with no spans).
 */
export function captureTelemetry(): TelemetryCapture {
  const exporter = registerTracingOnce();
  exporter.reset();
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    collectMetrics: async () => (await reader.collect()).resourceMetrics,
    stop: async () => {
      exporter.reset();
      metrics.disable();
      await meterProvider.shutdown();
    },
  };
}

/** The value of a counter or gauge (summed over its data points), or a histogram's count, by metric name. */
export function metricTotals(resource: ResourceMetrics): Map<string, number> {
  const totals = new Map<string, number>();
  for (const scope of resource.scopeMetrics) {
    for (const metric of scope.metrics) {
      let total = 0;
      for (const point of metric.dataPoints) {
        const value = point.value as number | { count: number };
        total += typeof value === "number" ? value : value.count;
      }
      totals.set(metric.descriptor.name, (totals.get(metric.descriptor.name) ?? 0) + total);
    }
  }
  return totals;
}
