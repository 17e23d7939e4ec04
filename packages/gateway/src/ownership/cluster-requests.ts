import { randomUUID } from "node:crypto";
import type { ClusterFleet, ClusterSignal } from "@chorus/store";

/** An answer from another instance: who gave it, and what it did. */
export interface ClusterAnswer {
  readonly from: string;
  readonly result: unknown;
}

/**
 * How a request ended for the asker: answered; taken by an instance that then fell silent before its answer (it
 * said it was working on it, then nothing came within the timeout: it may or may not have done it); or unanswered
 * (nobody took it).
 */
export type ClusterOutcome =
  | ({ readonly kind: "answered" } & ClusterAnswer)
  | { readonly kind: "lost"; readonly from: string }
  | { readonly kind: "unanswered" };

/** How long a request waits for the instance holding the run or owning the session (or for its next sign of work). */
export const CLUSTER_REQUEST_TIMEOUT_MS = 1500;

interface Pending {
  /** The instance that said it is working on the request. */
  taker?: string;
  settle(outcome: ClusterOutcome): void;
  /** Starts the wait for the next signal afresh (a sign of work came). */
  rearm(): void;
}

/**
 * Requests between cluster instances over the broadcast signal channel: `ask` sends a request and waits for the one
 * instance that holds the run or owns the session to answer; `onSignal` answers other instances' requests with
 * `answer` (undefined: not mine, stay silent). An answer that takes longer than a third of the timeout (a /compact's
 * summary call) is announced by `working` signals every third of it, so the asker waits for as long as the work goes
 * on, and learns within the timeout when the instance doing it dies.
 * Contract: `ask` and `outcome` never reject; `ask` resolves undefined when nobody answered in time (the owner is
 * gone, or the signal could not be sent) — the caller then acts locally.
 */
export class ClusterRequests<Request = unknown> {
  readonly #fleet: ClusterFleet;
  readonly #self: string;
  readonly #answer: (request: Request) => Promise<unknown> | undefined;
  readonly #track: (work: Promise<unknown>) => void;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, Pending>();

  constructor(options: {
    fleet: ClusterFleet;
    self: string;
    /** Undefined (at once): not this instance's to answer; else the answer (resolving undefined: no answer). */
    answer: (request: Request) => Promise<unknown> | undefined;
    track: (work: Promise<unknown>) => void;
    timeoutMs?: number;
  }) {
    this.#fleet = options.fleet;
    this.#self = options.self;
    this.#answer = options.answer;
    this.#track = options.track;
    this.#timeoutMs = options.timeoutMs ?? CLUSTER_REQUEST_TIMEOUT_MS;
  }

  /** The answer, or undefined when there was none (nobody took it, or its taker fell silent). */
  async ask(request: Request): Promise<ClusterAnswer | undefined> {
    const outcome = await this.outcome(request);
    return outcome.kind === "answered" ? { from: outcome.from, result: outcome.result } : undefined;
  }

  /** How the request ended, telling a taker that fell silent from nobody taking it. */
  async outcome(request: Request): Promise<ClusterOutcome> {
    const requestId = randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = new Promise<ClusterOutcome>((resolve) => {
      const pending: Pending = {
        settle: resolve,
        rearm: () => {
          clearTimeout(timer);
          timer = setTimeout(
            () => resolve(pending.taker === undefined ? { kind: "unanswered" } : { kind: "lost", from: pending.taker }),
            this.#timeoutMs,
          );
        },
      };
      this.#pending.set(requestId, pending);
      pending.rearm();
    });
    try {
      if (!(await this.#fleet.broadcast({ type: "request", requestId, request }))) return { kind: "unanswered" };
      return await ended;
    } finally {
      clearTimeout(timer);
      this.#pending.delete(requestId);
    }
  }

  onSignal(signal: ClusterSignal): void {
    if (signal.type === "response") {
      this.#pending.get(signal.requestId)?.settle({ kind: "answered", from: signal.from, result: signal.result });
      return;
    }
    if (signal.type === "working") {
      const pending = this.#pending.get(signal.requestId);
      if (pending === undefined) return;
      pending.taker = signal.from;
      pending.rearm();
      return;
    }
    // Its own request comes back too (a broadcast): it asked because it does not hold what the request is about.
    if (this.#pending.has(signal.requestId)) return;
    const { requestId, request } = signal;
    const work = this.#answer(request as Request);
    if (work === undefined) return;
    const working = setInterval(() => {
      void this.#fleet.broadcast({ type: "working", requestId, from: this.#self });
    }, this.#timeoutMs / 3);
    this.#track(
      work
        .then(async (result) => {
          clearInterval(working);
          if (result === undefined) return;
          await this.#fleet.broadcast({ type: "response", requestId, from: this.#self, result });
        })
        .finally(() => clearInterval(working)),
    );
  }
}
