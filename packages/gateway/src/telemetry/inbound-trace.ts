import type { InboundMessage } from "@chorus/channel";
import { type Attributes, type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { gatewayInstruments } from "./gateway-instruments.js";
import { type SessionKeyMode, sessionKeyAttribute } from "./session-key-hash.js";

const tracer = trace.getTracer("@chorus/gateway");

/** What became of an inbound message at the intake. */
export type InboundVerdict =
  | "ignored"
  | "pairing"
  | "rate_capped"
  | "duplicate"
  | "command"
  | "unreadable"
  | "handed_off"
  | "accepted"
  | "failed";

/**
 * The span (`inbound {channel}`, CONSUMER) and metrics of one inbound message, from the platform's delivery to the
 * start of the turn that answers it: dedupe and policy verdicts, the session (hashed by default) and the time the
 * message waited in its session's lane. Contract: every method is cheap and does nothing when nothing records.
 */
export class InboundTrace {
  readonly #span: Span | undefined;
  readonly #channel: string;
  readonly #keys: SessionKeyMode;
  readonly receivedAt = performance.now();
  #verdict: InboundVerdict = "failed";
  #queuedAt = 0;
  #open = true;

  constructor(span: Span | undefined, channel: string, keys: SessionKeyMode) {
    this.#span = span;
    this.#channel = channel;
    this.#keys = keys;
  }

  /**
   * Runs `work` with the span active: what it queues (a command's answer, a pairing reply) stores the span's
   * traceparent, so that a retried send is in the message's trace. Contract: `work` as is when not traced.
   */
  within<T>(work: () => T): T {
    const active = this.context;
    return active === undefined ? work() : context.with(active, work);
  }

  /** The span's context, for the turn that answers the message; undefined when not traced. */
  get context(): Context | undefined {
    return this.#span === undefined ? undefined : trace.setSpan(context.active(), this.#span);
  }

  /** The inbound policy's decision (`reply`, `ignore`, `pair`) and the sender's trust tier. */
  policy(action: string, trust?: string): void {
    if (this.#span === undefined) return;
    this.#span.setAttribute("chorus.inbound.policy", action);
    if (trust !== undefined) this.#span.setAttribute("chorus.trust_tier", trust);
  }

  /** The session the message was routed to. */
  session(key: string, agentId: string): void {
    if (this.#span === undefined) return;
    this.#span.setAttribute("chorus.session.key", sessionKeyAttribute(key, this.#keys));
    this.#span.setAttribute("gen_ai.agent.name", agentId);
  }

  /** Whether the store had seen this event id already. */
  dedupe(duplicate: boolean): void {
    this.#span?.setAttribute("chorus.inbound.dedupe", duplicate ? "duplicate" : "new");
  }

  /** What the intake decided; "accepted" starts the queue wait (set it before the message enters its lane). */
  verdict(verdict: InboundVerdict): void {
    this.#verdict = verdict;
    if (verdict === "accepted") this.#queuedAt = performance.now();
    this.#span?.setAttribute("chorus.inbound.verdict", verdict);
  }

  /** The intake is done with the message: counted; the span ends unless the message now waits for its turn. */
  intakeDone(): void {
    gatewayInstruments()?.inbound.add(1, { "chorus.channel": this.#channel, "chorus.inbound.verdict": this.#verdict });
    if (this.#span === undefined || this.#verdict === "accepted") return;
    if (this.#verdict === "failed") {
      this.#span.setAttribute("chorus.inbound.verdict", "failed");
      this.#span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.#end();
  }

  /** The message's turn starts: its queue wait is recorded and the span ends. */
  dequeued(): void {
    if (!this.#open) return;
    const queuedAt = this.#queuedAt === 0 ? performance.now() : this.#queuedAt;
    const waitMs = performance.now() - queuedAt;
    gatewayInstruments()?.queueWait.record(waitMs / 1000, { "chorus.channel": this.#channel });
    this.#span?.setAttribute("chorus.queue.wait_ms", waitMs);
    this.#end();
  }

  /**
   * The session had taken this stored message already (by its seq: a cluster's take-up or wake-up got there first):
   * the span ends with the dedupe verdict, as for a replayed event id.
   */
  duplicate(): void {
    if (!this.#open) return;
    this.#span?.setAttribute("chorus.inbound.dedupe", "duplicate");
    this.#endAs("duplicate");
  }

  /** The session went to another instance before the message's turn (it stays stored for the new owner). */
  handedOff(): void {
    this.#endAs("handed_off");
  }

  /** The message was dropped from its full lane before its turn: the span ends with that verdict. */
  dropped(): void {
    this.#endAs("dropped");
  }

  #endAs(verdict: InboundVerdict | "dropped"): void {
    if (!this.#open) return;
    if (verdict !== "dropped") this.#verdict = verdict;
    this.#span?.setAttribute("chorus.inbound.verdict", verdict);
    this.#end();
  }

  #end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#span?.end();
  }
}

/** Starts the trace of an inbound message. Contract: no span is started when no SDK records. */
export function startInboundTrace(message: InboundMessage, keys: SessionKeyMode = "hashed"): InboundTrace {
  let span: Span | undefined = tracer.startSpan(`inbound ${message.channel}`, { kind: SpanKind.CONSUMER });
  if (!span.isRecording()) span = undefined;
  else {
    const attributes: Attributes = {
      "chorus.channel": message.channel,
      "chorus.account_id": message.accountId,
      "chorus.chat_type": message.chatType,
    };
    span.setAttributes(attributes);
  }
  return new InboundTrace(span, message.channel, keys);
}
