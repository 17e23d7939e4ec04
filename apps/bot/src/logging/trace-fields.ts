import { trace } from "@opentelemetry/api";

/**
 * The active span's ids as log fields (`trace_id`, `span_id`), for pino's `mixin`: a log line written inside a turn
 * can be found from its trace and back. Contract: {} outside a recorded span (and always without an SDK).
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const ids = span.spanContext();
  if (!span.isRecording()) return {};
  return { trace_id: ids.traceId, span_id: ids.spanId };
}
