import { randomUUID } from "node:crypto";
import type { ClusterFleet, ClusterRequest, ClusterSignal } from "./session-ownership.js";

/** An answer from another instance: who gave it, and what it did. */
export interface ClusterAnswer {
  readonly from: string;
  readonly result: unknown;
}

/** How long a request waits for the instance holding the run or owning the session. */
export const CLUSTER_REQUEST_TIMEOUT_MS = 1500;

/**
 * Requests between cluster instances over the broadcast signal channel: `ask` sends a request and waits for the one
 * instance that holds the run or owns the session to answer; `onSignal` answers other instances' requests with
 * `answer` (undefined: not mine, stay silent). Contract: `ask` never rejects; it resolves undefined when nobody
 * answered within `timeoutMs` (the owner is gone, or the signal could not be sent) — the caller then acts locally.
 */
export class ClusterRequests {
  readonly #fleet: ClusterFleet;
  readonly #self: string;
  readonly #answer: (request: ClusterRequest) => Promise<unknown>;
  readonly #track: (work: Promise<unknown>) => void;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, (answer: ClusterAnswer | undefined) => void>();

  constructor(options: {
    fleet: ClusterFleet;
    self: string;
    answer: (request: ClusterRequest) => Promise<unknown>;
    track: (work: Promise<unknown>) => void;
    timeoutMs?: number;
  }) {
    this.#fleet = options.fleet;
    this.#self = options.self;
    this.#answer = options.answer;
    this.#track = options.track;
    this.#timeoutMs = options.timeoutMs ?? CLUSTER_REQUEST_TIMEOUT_MS;
  }

  async ask(request: ClusterRequest): Promise<ClusterAnswer | undefined> {
    const requestId = randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<ClusterAnswer | undefined>((resolve) => {
      this.#pending.set(requestId, resolve);
      timer = setTimeout(() => resolve(undefined), this.#timeoutMs);
    });
    try {
      if (!(await this.#fleet.broadcast({ type: "request", requestId, request }))) return undefined;
      return await answered;
    } finally {
      clearTimeout(timer);
      this.#pending.delete(requestId);
    }
  }

  onSignal(signal: ClusterSignal): void {
    if (signal.type === "response") {
      this.#pending.get(signal.requestId)?.({ from: signal.from, result: signal.result });
      return;
    }
    // Its own request comes back too (a broadcast): it asked because it does not hold what the request is about.
    if (this.#pending.has(signal.requestId)) return;
    const { requestId, request } = signal;
    this.#track(
      this.#answer(request).then(async (result) => {
        if (result === undefined) return;
        await this.#fleet.broadcast({ type: "response", requestId, from: this.#self, result });
      }),
    );
  }
}
