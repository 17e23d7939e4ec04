import { ChannelError } from "@chorus/channel";
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { gatewayInstruments } from "./gateway-instruments.js";
import { spanContextOf } from "./traceparent.js";

const tracer = trace.getTracer("@chorus/gateway");

/** What a delivery attempt is about. */
export interface DeliveryAttempt {
  readonly outboxId: number;
  readonly attempt: number;
  readonly channel: string;
  readonly createdAt: number;
  readonly now: number;
  /** The W3C traceparent stored with the entry (its turn's `invoke_agent` span), when it was traced. */
  readonly traceparent?: string | undefined;
}

/** Why a send failed, as the `chorus.retry.cause` / `chorus.platform.status` attribute. */
export function failureCause(error: unknown): string {
  if (error instanceof ChannelError) return error.kind;
  if (error instanceof Error && error.name === "ChannelNotRunningError") return "channel_not_running";
  return "error";
}

/**
 * The span (`deliver {channel}`, PRODUCER) of one outbox send attempt: a child of the active context when the turn's
 * commit handed the entry over, else (a retry by the outbox poll, a resend after a restart) of the span stored with
 * the entry, so a retried send stays in its turn's trace. Contract: `sent`/`failed` end it once.
 */
export class DeliveryTrace {
  readonly #span: Span | undefined;
  readonly #attempt: DeliveryAttempt;

  constructor(attempt: DeliveryAttempt) {
    this.#attempt = attempt;
    const span = tracer.startSpan(`deliver ${attempt.channel}`, { kind: SpanKind.PRODUCER }, parentOf(attempt));
    if (!span.isRecording()) return;
    span.setAttributes({
      "chorus.channel": attempt.channel,
      "chorus.outbox.id": attempt.outboxId,
      "chorus.outbox.attempt": attempt.attempt,
      "chorus.outbox.age_ms": attempt.now - attempt.createdAt,
    });
    this.#span = span;
  }

  sent(chunks: number, now: number): void {
    gatewayInstruments()?.outboxAge.record((now - this.#attempt.createdAt) / 1000, {
      "chorus.channel": this.#attempt.channel,
    });
    if (this.#span === undefined) return;
    this.#span.setAttribute("chorus.platform.status", "sent");
    this.#span.setAttribute("chorus.delivery.chunks", chunks);
    this.#span.end();
  }

  failed(error: unknown, willRetry: boolean): void {
    const cause = failureCause(error);
    if (willRetry) gatewayInstruments()?.retries.add(1, { "chorus.retry.cause": cause });
    if (this.#span === undefined) return;
    this.#span.setAttribute("chorus.platform.status", cause);
    this.#span.setAttribute("chorus.delivery.will_retry", willRetry);
    this.#span.setStatus({ code: SpanStatusCode.ERROR });
    this.#span.end();
  }
}

/** The active context when a span is active in it (the turn delivering its own reply), else the entry's stored one. */
function parentOf(attempt: DeliveryAttempt): Context {
  const active = context.active();
  if (trace.getSpan(active) !== undefined) return active;
  const stored = spanContextOf(attempt.traceparent);
  return stored === undefined ? active : trace.setSpanContext(active, stored);
}
