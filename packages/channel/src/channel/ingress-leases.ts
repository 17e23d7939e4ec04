/**
 * What the holder of an ingress unit leaves for the next holder, as JSON (Discord: the shard's session id and
 * sequence, so that a new holder could RESUME).
 */
export type IngressState = Readonly<Record<string, unknown>>;

/** This instance's hold on one ingress unit. */
export interface IngressLease {
  /** The unit, e.g. `telegram:<token hash>` or `discord:<token hash>:<shard>`. */
  readonly unit: string;
  /** Raised whenever the unit changes holder (0 without a cluster). */
  readonly epoch: number;
  /** What the previous holder saved, if anything. */
  readonly state: IngressState | undefined;
  /** Saves state for a later holder. Contract: never rejects; a failed save is warned about and dropped. */
  save(state: IngressState): Promise<void>;
}

/** Runs an ingress unit while this instance holds it. */
export interface IngressWorker {
  /** This instance now holds the unit: start consuming (one `getUpdates` loop, one gateway socket). */
  start(lease: IngressLease): Promise<void>;
  /** This instance no longer holds the unit (taken, released, or not renewed in time): stop consuming at once. */
  stop(): Promise<void>;
}

/** A unit registered with `IngressLeases.run`. */
export interface IngressRegistration {
  /** Stops the worker if it runs and gives the unit up at once, so another instance takes it. Idempotent. */
  withdraw(): Promise<void>;
}

/**
 * "May I run ingress unit X?": inbound consumers a platform allows only once per bot account (Telegram's long poll,
 * a Discord gateway shard) run on one instance of a cluster at a time, leased like sessions.
 * Contract: a worker is started only while this instance holds the unit's lease and is stopped before the lease can
 * expire when it cannot be renewed; without a cluster (`localIngress`) every unit is held here, at once.
 */
export interface IngressLeases {
  /**
   * Runs `worker` whenever this instance holds `unit`. Without a cluster the worker is started before this resolves
   * (and its start error rejects); in a cluster it starts once the lease is taken (at a heartbeat), maybe never.
   */
  run(unit: string, worker: IngressWorker): Promise<IngressRegistration>;
  /**
   * Takes the next slot of a rate limit every instance shares (a Discord IDENTIFY bucket): one slot of `key` per
   * `intervalMs` across the cluster. Contract: resolves with the milliseconds to wait before using the slot (0: now);
   * never rejects (when it cannot tell, 0). Without a cluster always 0: the process paces itself.
   */
  pace(key: string, intervalMs: number): Promise<number>;
}

/**
 * Every unit held by this process, at once and for good: a gateway alone on its store (memory, SQLite, PostgreSQL
 * without cluster mode). Contract: `run` starts the worker and rejects with its start error.
 */
export const localIngress: IngressLeases = {
  async run(unit, worker) {
    await worker.start({ unit, epoch: 0, state: undefined, save: async () => {} });
    let running = true;
    return {
      async withdraw() {
        if (!running) return;
        running = false;
        await worker.stop();
      },
    };
  },
  pace: async () => 0,
};
