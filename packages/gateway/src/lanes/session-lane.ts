import type { QueueMode } from "@chorus/store";
import type { AdmissionCandidate, FairAdmission } from "./fair-admission.js";
import type { LaneHost, LaneItem } from "./lane-item.js";

/** Options of one session's lane. */
export interface SessionLaneOptions {
  mode: QueueMode;
  /** Items waiting at most; beyond it the oldest is dropped. Default 20. */
  maxQueued?: number;
  /** Collect mode waits this long after the last message before it starts. Default 500 ms. */
  collectDebounceMs?: number;
}

/**
 * One session's lane: one turn at a time; messages that arrive meanwhile are handled by the queue mode —
 * `steer` (into the live run), `followup` (one turn each, afterwards), `collect` (debounced, merged into one turn),
 * `interrupt` (abort the live run, then start on the new message).
 * Contract: never runs two turns of a session at once; keeps at most `maxQueued` items (oldest dropped, host told);
 * asks the shared FairAdmission for a slot before each turn.
 */
export class SessionLane implements AdmissionCandidate {
  mode: QueueMode;
  readonly #host: LaneHost;
  readonly #admission: FairAdmission;
  readonly #maxQueued: number;
  readonly #debounceMs: number;
  #queue: LaneItem[] = [];
  /** Exclusive work (e.g. /compact) waiting for the lane; it goes before queued messages. */
  #tasks: (() => Promise<void>)[] = [];
  #running = false;
  #waiting = false;
  #collectTimer: ReturnType<typeof setTimeout> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retryWaited: (() => void) | undefined;

  constructor(host: LaneHost, admission: FairAdmission, options: SessionLaneOptions) {
    this.#host = host;
    this.#admission = admission;
    this.mode = options.mode;
    this.#maxQueued = options.maxQueued ?? 20;
    this.#debounceMs = options.collectDebounceMs ?? 500;
  }

  /** Whether a turn runs or waits for a slot. */
  get busy(): boolean {
    return this.#running || this.#waiting || this.#collectTimer !== undefined || this.#retryTimer !== undefined;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Items waiting for a turn. */
  get queued(): number {
    return this.#queue.length;
  }

  /** The items waiting for a turn, oldest first (a copy). */
  waitingItems(): LaneItem[] {
    return this.#queue.slice();
  }

  /** Takes a new item. */
  enqueue(item: LaneItem): void {
    if (this.#running) {
      if (item.source === "goal") {
        this.#push(item);
        return;
      }
      if (this.mode === "steer" && this.#host.steer(item)) return;
      this.#push(item);
      if (this.mode === "interrupt") this.#host.interrupt();
      else if (this.mode === "collect") this.#armCollect();
      return;
    }
    this.#push(item);
    if (this.mode === "collect" && item.source !== "goal") this.#armCollect();
    else this.#schedule();
  }

  /**
   * Runs `work` as one item of this lane: after the turn under way, with no turn running meanwhile; messages that
   * arrive while it runs wait for it (steer finds no live run). It takes a turn slot like a turn does.
   * Contract: resolves or rejects with the work's outcome; the lane goes on either way.
   */
  runExclusive<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#tasks.push(() => work().then(resolve, reject));
      this.#schedule();
    });
  }

  /**
   * Puts the items of a turn that could not start back at the head of the queue, to start again after `delayMs`
   * (the store did not answer). Contract: nothing of the session runs before them; `clear` takes them out too;
   * resolves once the pause is over (their turn asked for a slot) or the lane was cleared.
   */
  retryFirst(items: readonly LaneItem[], delayMs: number): Promise<void> {
    this.#queue.unshift(...items);
    this.#endRetryPause();
    return new Promise((resolve) => {
      this.#retryWaited = resolve;
      this.#retryTimer = setTimeout(() => {
        this.#endRetryPause();
        this.#settle();
      }, delayMs);
    });
  }

  /** Takes waiting items out of the queue (an autonomous goal's prompt once the goal stops). Contract: how many. */
  withdraw(matches: (item: LaneItem) => boolean): number {
    const before = this.#queue.length;
    this.#queue = this.#queue.filter((item) => !matches(item));
    return before - this.#queue.length;
  }

  /** Empties the queue (for /stop, /new). Contract: returns what was removed. */
  clear(): LaneItem[] {
    if (this.#collectTimer !== undefined) clearTimeout(this.#collectTimer);
    this.#collectTimer = undefined;
    this.#endRetryPause();
    return this.#queue.splice(0);
  }

  /** Called by FairAdmission. */
  admit(release: () => void): void {
    this.#waiting = false;
    const task = this.#tasks.shift();
    if (task !== undefined) {
      this.#running = true;
      void task().finally(() => {
        this.#running = false;
        release();
        this.#settle();
      });
      return;
    }
    const items = this.#take();
    if (items.length === 0) {
      release();
      this.#settle();
      return;
    }
    this.#running = true;
    void this.#host
      .runTurn(items, release)
      .catch(() => {
        // runTurn reports its own failures; the lane must go on regardless.
      })
      .finally(() => {
        this.#running = false;
        release();
        this.#settle();
      });
  }

  #endRetryPause(): void {
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#retryWaited?.();
    this.#retryWaited = undefined;
  }

  #push(item: LaneItem): void {
    this.#queue.push(item);
    while (this.#queue.length > this.#maxQueued) this.#host.dropped(this.#queue.shift()!);
  }

  #take(): LaneItem[] {
    if (this.mode === "followup") return this.#queue.splice(0, 1);
    return this.#queue.splice(0);
  }

  #armCollect(): void {
    if (this.#collectTimer !== undefined) clearTimeout(this.#collectTimer);
    this.#collectTimer = setTimeout(() => {
      this.#collectTimer = undefined;
      this.#schedule();
    }, this.#debounceMs);
  }

  #schedule(): void {
    if (this.#running || this.#waiting || this.#retryTimer !== undefined) return;
    if (this.#tasks.length === 0 && (this.#collectTimer !== undefined || this.#queue.length === 0)) return;
    this.#waiting = true;
    this.#admission.request(this);
  }

  #settle(): void {
    this.#schedule();
    if (!this.busy && this.#queue.length === 0) this.#host.idle();
  }
}
