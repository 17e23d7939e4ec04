import type { IngressLeases, IngressRegistration, IngressWorker } from "@chorus/channel";
import { describeError } from "@chorus/store";
import type { Db } from "../query-runner.js";
import {
  type ClaimedUnit,
  claimIngressUnits,
  releaseIngressUnits,
  saveIngressState,
  seedIngressUnits,
  takeIngressSlot,
} from "./ingress-statements.js";

interface Unit {
  readonly worker: IngressWorker;
  seeded: boolean;
  /** The epoch held and the local monotonic time until which the worker may run, while held. */
  held: { readonly epoch: number; validUntil: number } | undefined;
  /** The worker's start or stop under way: the next change waits for it. */
  change: Promise<void>;
}

/** What a heartbeat tells the ingress leases. */
export interface IngressBeat {
  /** Units renewed by this beat: unit → epoch. */
  readonly renewed: ReadonlyMap<string, number>;
  /** Instances alive, this one included. */
  readonly live: number;
  /** Local monotonic time until which a lease renewed by this beat may be used (a third before it could expire). */
  readonly validUntil: number;
}

/**
 * Ingress units leased on PostgreSQL (`ingress_leases`), renewed by the session ownership's heartbeat: each instance
 * claims a fair share (⌈registered units ÷ live instances⌉) of the units it runs, releases its surplus when an
 * instance joins, and stops a unit's worker when the unit was taken or when it could not renew in time (a timer at the
 * end of the lease's usable part, so a cut-off instance stops polling before another may start).
 * Contract: see `IngressLeases`; a worker runs only between a claim (or renewal) and the usable end of that lease.
 */
export class PostgresIngressLeases implements IngressLeases {
  readonly #db: Db;
  readonly #owner: string;
  readonly #leaseMs: number;
  readonly #onWarning: (message: string) => void;
  readonly #clock: () => number;
  readonly #units = new Map<string, Unit>();
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(parts: {
    db: Db;
    owner: string;
    leaseMs: number;
    clock: () => number;
    onWarning: (message: string) => void;
  }) {
    this.#db = parts.db;
    this.#owner = parts.owner;
    this.#leaseMs = parts.leaseMs;
    this.#clock = parts.clock;
    this.#onWarning = parts.onWarning;
  }

  /** The units this instance runs now, sorted. */
  get held(): string[] {
    return [...this.#units]
      .filter(([, unit]) => unit.held !== undefined)
      .map(([name]) => name)
      .sort();
  }

  async run(unit: string, worker: IngressWorker): Promise<IngressRegistration> {
    if (this.#units.has(unit)) throw new Error(`Ingress unit ${unit} is already registered on this instance.`);
    const entry: Unit = { worker, seeded: false, held: undefined, change: Promise.resolve() };
    this.#units.set(unit, entry);
    let withdrawn = false;
    return {
      withdraw: async () => {
        if (withdrawn) return;
        withdrawn = true;
        this.#units.delete(unit);
        const wasHeld = entry.held !== undefined;
        await this.#stopWorker(unit, entry);
        if (!wasHeld) return;
        try {
          await releaseIngressUnits(this.#db, this.#owner, [unit]);
        } catch (error) {
          this.#onWarning(
            `Could not release ingress ${unit} (it expires in ${this.#leaseMs} ms): ${describeError(error)}`,
          );
        }
      },
    };
  }

  async pace(key: string, intervalMs: number): Promise<number> {
    try {
      return await takeIngressSlot(this.#db, `pace:${key}`, intervalMs);
    } catch (error) {
      this.#onWarning(`Could not take a ${key} slot (going ahead): ${describeError(error)}`);
      return 0;
    }
  }

  /** After a heartbeat: stops what was lost, then claims up to a fair share or gives the surplus back. */
  async beat(beat: IngressBeat): Promise<void> {
    const orphans: string[] = [];
    for (const [name, unit] of this.#units) {
      if (unit.held === undefined) {
        // Still this instance's in the database, but its worker stopped here (the lease was not renewed in time, and
        // nobody took it meanwhile): give it back, so that it can be claimed afresh, by anyone, with a new epoch.
        if (beat.renewed.has(name)) orphans.push(name);
        continue;
      }
      if (beat.renewed.get(name) === unit.held.epoch) unit.held.validUntil = beat.validUntil;
      else void this.#stopWorker(name, unit);
    }
    if (orphans.length > 0) void this.#giveBack(orphans);
    this.#armExpiry();
    if (this.#units.size === 0) return;
    const target = Math.ceil(this.#units.size / Math.max(1, beat.live));
    const held = [...this.#units].filter(([, unit]) => unit.held !== undefined);
    if (held.length < target) await this.#claim(target - held.length, beat.validUntil);
    // Not awaited: a worker may take a while to stop (a long poll ending), and the heartbeat must go on meanwhile.
    else if (held.length > target) void this.#giveBack(held.slice(target).map(([name]) => name));
  }

  /** Stops every worker (the instance stops; its leases are released with the shards). */
  async stopAll(): Promise<void> {
    if (this.#expiryTimer !== undefined) clearTimeout(this.#expiryTimer);
    await Promise.all([...this.#units].map(([name, unit]) => this.#stopWorker(name, unit)));
  }

  async #claim(max: number, validUntil: number): Promise<void> {
    const wanted = [...this.#units].filter(([, unit]) => unit.held === undefined);
    let claimed: ClaimedUnit[];
    try {
      const unseeded = wanted.filter(([, unit]) => !unit.seeded).map(([name]) => name);
      if (unseeded.length > 0) await seedIngressUnits(this.#db, unseeded);
      for (const [, unit] of wanted) unit.seeded = true;
      claimed = await claimIngressUnits(
        this.#db,
        this.#owner,
        this.#leaseMs,
        wanted.map(([name]) => name),
        max,
      );
    } catch (error) {
      this.#onWarning(`Could not claim ingress leases: ${describeError(error)}`);
      return;
    }
    for (const { unit: name, epoch, state } of claimed) {
      const unit = this.#units.get(name);
      if (unit === undefined) continue; // withdrawn meanwhile: it expires unrenewed
      unit.held = { epoch, validUntil };
      unit.change = unit.change.then(() =>
        unit.worker
          .start({
            unit: name,
            epoch,
            state,
            save: (next) =>
              saveIngressState(this.#db, this.#owner, name, epoch, next).catch((error: unknown) =>
                this.#onWarning(`Could not save the state of ingress ${name}: ${describeError(error)}`),
              ),
          })
          .catch((error: unknown) => {
            this.#onWarning(`Ingress ${name} did not start here; giving it back: ${describeError(error)}`);
            void this.#giveBack([name]);
          }),
      );
    }
    this.#armExpiry();
  }

  async #giveBack(names: readonly string[]): Promise<void> {
    for (const name of names) {
      const unit = this.#units.get(name);
      if (unit !== undefined) await this.#stopWorker(name, unit);
    }
    try {
      await releaseIngressUnits(this.#db, this.#owner, names);
    } catch (error) {
      this.#onWarning(`Could not release ingress leases: ${describeError(error)}`);
    }
  }

  #stopWorker(name: string, unit: Unit): Promise<void> {
    if (unit.held === undefined) return unit.change;
    unit.held = undefined;
    unit.change = unit.change.then(() =>
      unit.worker
        .stop()
        .catch((error: unknown) => this.#onWarning(`Ingress ${name} did not stop: ${describeError(error)}`)),
    );
    return unit.change;
  }

  /** A timer at the earliest usable end of a held lease: a worker whose lease was not renewed by then stops. */
  #armExpiry(): void {
    if (this.#expiryTimer !== undefined) clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
    const ends = [...this.#units.values()].flatMap((unit) => (unit.held === undefined ? [] : [unit.held.validUntil]));
    if (ends.length === 0) return;
    this.#expiryTimer = setTimeout(() => this.#expire(), Math.max(0, Math.min(...ends) - this.#clock()) + 1);
    this.#expiryTimer.unref?.();
  }

  #expire(): void {
    const now = this.#clock();
    for (const [name, unit] of this.#units) {
      if (unit.held !== undefined && now > unit.held.validUntil) {
        this.#onWarning(`Ingress ${name} stopped here: its lease could not be renewed in time.`);
        void this.#stopWorker(name, unit);
      }
    }
    this.#armExpiry();
  }
}
