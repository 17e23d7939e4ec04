import type { SessionStore } from "@chorus/store";

/** The session key the probe reads: no session has it, so the read is one indexed lookup that finds nothing. */
const PROBE_KEY = "chorus:readiness-probe";

/** Options of a store reachability probe. */
export interface StoreReachabilityOptions {
  /** How often the store is read. Default 1000 ms. */
  readonly everyMs?: number;
  /** A read slower than this counts as unreachable. Default 2000 ms. */
  readonly timeoutMs?: number;
  /** Told when the store stops or starts answering. */
  readonly onChange?: (reachable: boolean) => void;
}

/**
 * Whether the store answers now, for readiness (`/readyz`): a balancer stops sending messages to an instance that
 * cannot store them, and sends them again once it can. One cheap read every `everyMs`.
 * Contract: `reachable` is the outcome of the latest probe (true before the first); `stop` ends the probing.
 */
export class StoreReachability {
  readonly #store: Pick<SessionStore, "getSession">;
  readonly #everyMs: number;
  readonly #timeoutMs: number;
  readonly #onChange: ((reachable: boolean) => void) | undefined;
  #reachable = true;
  #timer: ReturnType<typeof setInterval> | undefined;
  #probing = false;

  constructor(store: Pick<SessionStore, "getSession">, options: StoreReachabilityOptions = {}) {
    this.#store = store;
    this.#everyMs = options.everyMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? 2000;
    this.#onChange = options.onChange;
  }

  get reachable(): boolean {
    return this.#reachable;
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.probe(), this.#everyMs);
    this.#timer.unref?.();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reads the store once. Contract: resolves with the outcome; never rejects; a probe under way is not doubled. */
  async probe(): Promise<boolean> {
    if (this.#probing) return this.#reachable;
    this.#probing = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#timeoutMs);
    });
    try {
      const read = this.#store.getSession(PROBE_KEY).then(
        () => true,
        () => false,
      );
      this.#set(await Promise.race([read, timedOut]));
    } finally {
      clearTimeout(timer);
      this.#probing = false;
    }
    return this.#reachable;
  }

  #set(reachable: boolean): void {
    if (reachable === this.#reachable) return;
    this.#reachable = reachable;
    this.#onChange?.(reachable);
  }
}
