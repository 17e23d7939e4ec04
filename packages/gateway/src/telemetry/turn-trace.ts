import type { AgentEvent } from "@chorus/core";
import { type Context, context } from "@opentelemetry/api";
import type { LaneItem } from "../lanes/lane-item.js";
import { gatewayInstruments } from "./gateway-instruments.js";

/**
 * One turn's telemetry: it ends its messages' inbound spans (their queue wait), runs the turn inside the first
 * message's trace (so `invoke_agent` and the deliveries are its children), and records the turn's duration and the
 * time from the message's arrival to the first reply text. Contract: a turn without traced messages runs as is.
 */
export class TurnTrace {
  readonly #agentId: string;
  readonly #parent: Context | undefined;
  readonly #startedAt = performance.now();
  readonly #arrivedAt: number;
  #firstChunk = false;

  constructor(items: readonly LaneItem[], agentId: string) {
    this.#agentId = agentId;
    let parent: Context | undefined;
    let arrivedAt = this.#startedAt;
    for (const item of items) {
      const inbound = item.trace;
      if (inbound === undefined) continue;
      inbound.dequeued();
      parent ??= inbound.context;
      arrivedAt = Math.min(arrivedAt, inbound.receivedAt);
    }
    this.#parent = parent;
    this.#arrivedAt = arrivedAt;
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

  /** Sees the turn's events: the first text delta is the time to the first reply chunk. */
  observe(event: AgentEvent): void {
    if (this.#firstChunk || event.type !== "message_update") return;
    if (event.assistantMessageEvent.type !== "text_delta") return;
    this.#firstChunk = true;
    gatewayInstruments()?.firstChunk.record((performance.now() - this.#arrivedAt) / 1000, {
      "gen_ai.agent.name": this.#agentId,
    });
  }
}
