import type { IngressState } from "@chorus/channel";
import type { Db } from "../query-runner.js";

/** An ingress unit taken by a claim, with what its previous holder saved. */
export interface ClaimedUnit {
  readonly unit: string;
  readonly epoch: number;
  readonly state: IngressState | undefined;
}

/** Makes sure every unit has its lease row (a unit's first registration ever); rows are never deleted. */
export async function seedIngressUnits(db: Db, units: readonly string[]): Promise<void> {
  await db.query("INSERT INTO ingress_leases (unit) SELECT unnest($1::text[]) ON CONFLICT (unit) DO NOTHING", [units]);
}

// Free or expired units among those asked for, at most $4; SKIP LOCKED: two instances claiming at once take different
// ones. The epoch moves whenever the holder changes.
const CLAIM_INGRESS = `
  WITH clock AS (SELECT chorus_now_ms() AS now),
  candidates AS (
    SELECT unit FROM ingress_leases, clock
    WHERE unit = ANY($3::text[]) AND (owner IS NULL OR expires_at < clock.now) AND owner IS DISTINCT FROM $1
    ORDER BY unit LIMIT $4 FOR UPDATE OF ingress_leases SKIP LOCKED)
  UPDATE ingress_leases l SET owner = $1, epoch = l.epoch + 1, expires_at = (SELECT now FROM clock) + $2
  FROM candidates c WHERE l.unit = c.unit
  RETURNING l.unit, l.epoch, l.state`;

/** Claims up to `max` of `units` that nobody holds (or whose holder stopped renewing). One statement. */
export async function claimIngressUnits(
  db: Db,
  owner: string,
  leaseMs: number,
  units: readonly string[],
  max: number,
): Promise<ClaimedUnit[]> {
  const { rows } = await db.query(CLAIM_INGRESS, [owner, leaseMs, units, max]);
  return rows.map((row) => ({
    unit: String(row.unit),
    epoch: Number(row.epoch),
    state: (row.state ?? undefined) as IngressState | undefined,
  }));
}

/** Gives units up at once (owner cleared), so the next claimer takes them without waiting for expiry. */
export async function releaseIngressUnits(db: Db, owner: string, units: readonly string[]): Promise<void> {
  await db.query("UPDATE ingress_leases SET owner = NULL, expires_at = 0 WHERE owner = $1 AND unit = ANY($2::text[])", [
    owner,
    units,
  ]);
}

/** Saves the holder's state for the next holder; nothing happens once the unit has moved on (another epoch). */
export async function saveIngressState(
  db: Db,
  owner: string,
  unit: string,
  epoch: number,
  state: IngressState,
): Promise<void> {
  await db.query("UPDATE ingress_leases SET state = $4 WHERE unit = $1 AND owner = $2 AND epoch = $3", [
    unit,
    owner,
    epoch,
    JSON.stringify(state),
  ]);
}

// A rate-limit slot is a row no instance ever claims (no one registers it as a unit); its expiry is the time the next
// slot is free. One statement: the row lock makes two instances asking at once take consecutive slots.
const TAKE_SLOT = `
  INSERT INTO ingress_leases (unit, expires_at) VALUES ($1, chorus_now_ms() + $2)
  ON CONFLICT (unit) DO UPDATE SET expires_at = greatest(ingress_leases.expires_at, chorus_now_ms()) + $2
  RETURNING expires_at - $2 - chorus_now_ms() AS wait_ms`;

/** Takes the next slot of `key` (one per `intervalMs` across instances); resolves with the ms to wait for it. */
export async function takeIngressSlot(db: Db, key: string, intervalMs: number): Promise<number> {
  const { rows } = await db.query(TAKE_SLOT, [key, intervalMs]);
  return Math.max(0, Number(rows[0]?.wait_ms ?? 0));
}
