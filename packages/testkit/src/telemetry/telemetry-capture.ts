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

/**
 * Registers a global OpenTelemetry tracer provider (an in-memory span exporter), meter provider and async context
 * manager, as a program's SDK setup would, for tests and benches. Contract: call `stop()` after; one at a time.
 */
export function captureTelemetry(): TelemetryCapture {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    collectMetrics: async () => (await reader.collect()).resourceMetrics,
    stop: async () => {
      trace.disable();
      metrics.disable();
      context.disable();
      await tracerProvider.shutdown();
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
