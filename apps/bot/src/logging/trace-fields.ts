import { isSpanContextValid, TraceFlags, trace } from "@opentelemetry/api";

/**
 * The active span's ids as log fields (`trace_id`, `span_id`), for pino's `mixin`: a log line written inside a turn
 * can be found from its trace and back. A span that has ended still names its trace (a turn's commit is logged after
 * its run's span ended), so the test is whether the span is sampled — exported — not whether it is still recording.
 * Contract: {} outside a sampled span (and always without an SDK).
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const ids = span.spanContext();
  if ((ids.traceFlags & TraceFlags.SAMPLED) === 0 || !isSpanContextValid(ids)) return {};
  return { trace_id: ids.traceId, span_id: ids.spanId };
}
