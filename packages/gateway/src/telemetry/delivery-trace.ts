import { type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { ChannelError } from "../channel/channel-error.js";
import { gatewayInstruments } from "./gateway-instruments.js";

const tracer = trace.getTracer("@chorus/gateway");

/** What a delivery attempt is about. */
export interface DeliveryAttempt {
  readonly outboxId: number;
  readonly attempt: number;
  readonly channel: string;
  readonly createdAt: number;
  readonly now: number;
}

/** Why a send failed, as the `chorus.retry.cause` / `chorus.platform.status` attribute. */
export function failureCause(error: unknown): string {
  if (error instanceof ChannelError) return error.kind;
  if (error instanceof Error && error.name === "ChannelNotRunningError") return "channel_not_running";
  return "error";
}

/**
 * The span (`deliver {channel}`, PRODUCER) of one outbox send attempt, a child of the active context (the turn's
 * trace when the turn's commit handed the entry over). Contract: `sent`/`failed` end it once.
 */
export class DeliveryTrace {
  readonly #span: Span | undefined;
  readonly #attempt: DeliveryAttempt;

  constructor(attempt: DeliveryAttempt) {
    this.#attempt = attempt;
    const span = tracer.startSpan(`deliver ${attempt.channel}`, { kind: SpanKind.PRODUCER });
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
