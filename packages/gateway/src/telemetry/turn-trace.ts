import { type AgentTelemetryConfig, startInvokeAgentSpan } from "@chorus/core";
import { type Context, context, type Link, type Span, trace } from "@opentelemetry/api";
import { gatewayInstruments } from "./gateway-instruments.js";
import type { InboundTrace } from "./inbound-trace.js";
import { resumesLink } from "./resumes-link.js";

/** What a turn's trace reads of each message it answers (a lane item). */
interface TracedItem {
  /** The traceparent of the run a takeover resumes. */
  readonly resumes?: string;
  readonly trace?: InboundTrace;
}

/**
 * One turn's telemetry: it ends its messages' inbound spans (their queue wait), starts the turn's `invoke_agent` span
 * in the first message's trace (linked to the runs it resumes after a restart) and runs the whole turn with that span
 * active — the run, its commits, its deliveries and its log lines are in it — and records the turn's duration and the
 * time from the message's delivery to the first reply chunk at the platform. The turn's run takes the span
 * (`takeRunSpan`) and ends it; a turn that never starts its run ends it here. Contract: a turn without traced
 * messages and without an SDK runs as is.
 */
export class TurnTrace {
  readonly #agentId: string;
  readonly #parent: Context | undefined;
  /** The turn's `invoke_agent` span, until its run takes it; undefined when not traced. */
  #runSpan: Span | undefined;
  #taken = false;
  readonly #startedAt = performance.now();
  readonly #arrivedAt: number;
  #firstChunk = false;

  constructor(items: readonly TracedItem[], agentId: string) {
    this.#agentId = agentId;
    let parent: Context | undefined;
    let arrivedAt = this.#startedAt;
    const links: Link[] = [];
    for (const item of items) {
      const resumed = resumesLink(item.resumes);
      if (resumed !== undefined) links.push(resumed);
      const inbound = item.trace;
      if (inbound === undefined) continue;
      inbound.dequeued();
      parent ??= inbound.context;
      arrivedAt = Math.min(arrivedAt, inbound.receivedAt);
    }
    this.#arrivedAt = arrivedAt;
    // Links of the turn's `invoke_agent` span: to the interrupted runs its items resume.
    const settings: AgentTelemetryConfig = { agentName: agentId, links: () => links };
    if (parent !== undefined) settings.parent = parent;
    this.#runSpan = startInvokeAgentSpan(settings);
    this.#parent = this.#runSpan === undefined ? parent : trace.setSpan(parent ?? context.active(), this.#runSpan);
  }

  /**
   * The turn's `invoke_agent` span for its run (the Agent's `telemetry.span`), once: the run sets its attributes and
   * ends it. Undefined when not traced, or for a second run of the turn (which then starts its own).
   */
  takeRunSpan(): Span | undefined {
    if (this.#taken) return undefined;
    this.#taken = true;
    return this.#runSpan;
  }

  /** Runs the turn in its `invoke_agent` span (in its messages' trace). */
  run<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#parent === undefined ? work() : context.with(this.#parent, work);
    const instruments = gatewayInstruments();
    if (instruments === undefined && this.#runSpan === undefined) return turn;
    const done = (): void => {
      if (!this.#taken) {
        // The turn ended before its run started (ownership moved, the transcript could not be read).
        this.#taken = true;
        this.#runSpan?.setAttribute("chorus.agent.end_reason", "not_started");
        this.#runSpan?.end();
      }
      instruments?.turnDuration.record((performance.now() - this.#startedAt) / 1000, {
        "gen_ai.agent.name": this.#agentId,
      });
    };
    turn.then(done, done);
    return turn;
  }

  /**
   * A chunk of the turn's reply reached the platform (a preview message, or the outbox's first chunk): the first one
   * is the time to the first reply chunk, counted from the message's delivery. An arrow, to hand out as a callback.
   */
  readonly chunkReachedPlatform = (): void => {
    if (this.#firstChunk) return;
    this.#firstChunk = true;
    gatewayInstruments()?.firstChunk.record((performance.now() - this.#arrivedAt) / 1000, {
      "gen_ai.agent.name": this.#agentId,
    });
  };
}
