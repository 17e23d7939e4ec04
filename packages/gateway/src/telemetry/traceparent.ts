import { type SpanContext, TraceFlags, trace } from "@opentelemetry/api";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE = "0".repeat(32);
const INVALID_SPAN = "0".repeat(16);

/** A span context as a W3C `traceparent` (version 00), the form stored with runs and outbox entries. */
export function traceparentOf(span: SpanContext): string {
  const flags = (span.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, "0");
  return `00-${span.traceId}-${span.spanId}-${flags}`;
}

/**
 * The span context a stored `traceparent` names, as a remote one (another process wrote it).
 * Contract: undefined for anything that is not a valid version-00 traceparent, so a bad row never breaks a turn.
 */
export function spanContextOf(traceparent: string | undefined): SpanContext | undefined {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (match === null) return undefined;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (traceId === INVALID_TRACE || spanId === INVALID_SPAN) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
}

/**
 * The active span's traceparent, stored with an outbox entry queued outside a turn (a command's reply, a notice) so a
 * retried send stays in the trace that queued it. Contract: undefined when no span is active or it is not recorded.
 */
export function activeTraceparent(): string | undefined {
  const span = trace.getActiveSpan();
  return span === undefined || !span.isRecording() ? undefined : traceparentOf(span.spanContext());
}
