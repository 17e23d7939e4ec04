import { type Context, context, type Link } from "@opentelemetry/api";
import type { LaneItem } from "../lanes/lane-item.js";
import { gatewayInstruments } from "./gateway-instruments.js";
import { resumesLink } from "./resumes-link.js";

/**
 * One turn's telemetry: it ends its messages' inbound spans (their queue wait), runs the turn inside the first
 * message's trace (so `invoke_agent` and the deliveries are its children), links the turn to the runs it resumes
 * after a restart (`links`, for its `invoke_agent` span), and records the turn's duration and the
 * time from the message's delivery to the first reply chunk at the platform. Contract: a turn without traced messages runs as is.
 */
export class TurnTrace {
  readonly #agentId: string;
  readonly #parent: Context | undefined;
  readonly #startedAt = performance.now();
  readonly #arrivedAt: number;
  /** Links of the turn's `invoke_agent` span: to the interrupted runs its items resume. */
  readonly links: readonly Link[];
  #firstChunk = false;

  constructor(items: readonly LaneItem[], agentId: string) {
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
    this.#parent = parent;
    this.#arrivedAt = arrivedAt;
    this.links = links;
  }

  /** Runs the turn in its messages' trace. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#parent === undefined ? work() : context.with(this.#parent, work);
    const instruments = gatewayInstruments();
    if (instruments === undefined) return turn;
    const done = (): void =>
      instruments.turnDuration.record((performance.now() - this.#startedAt) / 1000, {
        "gen_ai.agent.name": this.#agentId,
      });
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
