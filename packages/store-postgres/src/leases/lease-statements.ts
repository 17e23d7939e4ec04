import type { AgentMessage } from "@chorus/core";
import type { ClusterInstance, OutboxEntry, ReportedRun, RunRecord, TranscriptEntry } from "@chorus/store";
import { outboxFromRow, runFromRow, type StoredRow, sessionFromRow } from "@chorus/store";
import type { Db } from "../query-runner.js";
import type { StoreContext } from "../sql/store-context.js";

/** A shard this instance holds, and the epoch it holds it under. */
export interface HeldShard {
  readonly shard: number;
  readonly epoch: number;
}

/** What one heartbeat found. */
export interface Heartbeat {
  /** The shards still this instance's, now renewed. */
  readonly renewed: readonly HeldShard[];
  /** The ingress units (a long poll, a Discord shard) still this instance's, now renewed: unit → epoch. */
  readonly ingress: ReadonlyMap<string, number>;
  /** Instances alive (heartbeat within a lease), this one included. */
  readonly live: number;
  /** Shards free or expired: another instance's lease ran out, or it released them. */
  readonly claimable: number;
  /** In how many ms (database clock) the soonest of another instance's leases runs out; undefined when none is held. */
  readonly nextExpiryMs: number | undefined;
}

/**
 * One round trip per beat: the instance's own heartbeat row (with the runs live in it), every lease it holds renewed (also one that expired
 * while nobody took it: the epoch did not move, so nobody else wrote), and what the fleet looks like. Times are the
 * database's (`chorus_now_ms()`), so instances never compare their own clocks.
 */
const HEARTBEAT = `
  WITH clock AS (SELECT chorus_now_ms() AS now),
  me AS (
    INSERT INTO cluster_instances (instance_id, heartbeat_at, live_runs) SELECT $1, now, $4::jsonb FROM clock
    ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, live_runs = excluded.live_runs
    RETURNING 1),
  -- Instances killed long ago (each process has its own id): their rows go, so the table stays a handful of rows.
  forgotten AS (DELETE FROM cluster_instances WHERE heartbeat_at < (SELECT now FROM clock) - $3),
  -- Locked in shard order, as a group commit's batch takes them (lock-order.ts): never a deadlock with one.
  held AS (SELECT shard FROM shard_leases WHERE owner = $1 ORDER BY shard FOR NO KEY UPDATE),
  renewed AS (
    UPDATE shard_leases SET expires_at = (SELECT now FROM clock) + $2
    WHERE shard IN (SELECT shard FROM held) AND owner = $1 RETURNING shard, epoch),
  renewed_ingress AS (
    UPDATE ingress_leases SET expires_at = (SELECT now FROM clock) + $2 WHERE owner = $1 RETURNING unit, epoch)
  SELECT (SELECT coalesce(json_agg(json_build_array(shard, epoch)), '[]') FROM renewed) AS renewed,
    (SELECT coalesce(json_agg(json_build_array(unit, epoch)), '[]') FROM renewed_ingress) AS ingress,
    (SELECT count(*) FROM cluster_instances, clock WHERE instance_id <> $1 AND heartbeat_at > clock.now - $2)
      + (SELECT count(*) FROM me) AS live,
    (SELECT count(*) FROM shard_leases, clock WHERE (owner IS NULL OR expires_at < clock.now) AND owner IS DISTINCT FROM $1)
      AS claimable,
    (SELECT min(expires_at) - clock.now FROM shard_leases, clock
      WHERE owner IS NOT NULL AND owner <> $1 AND expires_at >= clock.now GROUP BY clock.now) AS next_expiry_ms`;

/** How long the row of an instance that stopped beating is kept (it no longer counts after one lease). */
const FORGET_INSTANCES_AFTER_MS = 3_600_000;

export async function heartbeat(
  db: Db,
  instanceId: string,
  leaseMs: number,
  liveRuns: readonly ReportedRun[] = [],
): Promise<Heartbeat> {
  const { rows } = await db.query(HEARTBEAT, [
    instanceId,
    leaseMs,
    FORGET_INSTANCES_AFTER_MS,
    JSON.stringify(liveRuns),
  ]);
  const row = rows[0] ?? {};
  return {
    renewed: heldShards(row.renewed),
    ingress: new Map(parseJson<[string, number][]>(row.ingress).map(([unit, epoch]) => [unit, Number(epoch)])),
    live: Number(row.live),
    claimable: Number(row.claimable),
    nextExpiryMs:
      row.next_expiry_ms === null || row.next_expiry_ms === undefined ? undefined : Number(row.next_expiry_ms),
  };
}

/** What a claim took, and what the previous owners left in those shards. */
export interface Claim {
  readonly claimed: readonly HeldShard[];
  readonly interruptedRuns: readonly RunRecord[];
  readonly requeuedOutbox: readonly OutboxEntry[];
}

// Free or expired shards, at most $3; SKIP LOCKED: two instances claiming at once take different ones. The epoch
// moves whenever the owner changes, which is what fences the previous owner's writes.
const CLAIM = `
  WITH clock AS (SELECT chorus_now_ms() AS now),
  candidates AS (
    SELECT shard, owner FROM shard_leases, clock
    WHERE (owner IS NULL OR expires_at < clock.now) AND owner IS DISTINCT FROM $1
    ORDER BY shard LIMIT $3 FOR UPDATE OF shard_leases SKIP LOCKED)
  UPDATE shard_leases l SET owner = $1, epoch = l.epoch + 1, expires_at = (SELECT now FROM clock) + $2
  FROM candidates c WHERE l.shard = c.shard
  RETURNING l.shard, l.epoch`;

export const TAKEN_OVER = "the instance running it stopped; another instance took its sessions over";

/**
 * Claims up to `max` free or expired shards, and in the same transaction settles what their previous owners left:
 * running runs marked interrupted, in-flight outbox entries back to pending (the outcome of their sends is unknown;
 * `last_error` says so), due only `graceMs` from now and still naming their claimer, which may yet mark them sent.
 * Contract: all or nothing; nothing claimed when every shard is held.
 */
export async function claimShards(
  db: Db,
  ctx: StoreContext,
  instanceId: string,
  leaseMs: number,
  max: number,
  graceMs = 0,
): Promise<Claim> {
  return db.atomically(async (tx) => {
    const { rows } = await tx.query(CLAIM, [instanceId, leaseMs, max]);
    const claimed = rows.map((row) => ({ shard: Number(row.shard), epoch: Number(row.epoch) }));
    if (claimed.length === 0) return { claimed, interruptedRuns: [], requeuedOutbox: [] };
    const shards = claimed.map((held) => held.shard);
    const now = ctx.now();
    const runs = await tx.query(
      `UPDATE runs SET status = 'interrupted', ended_at = $2, error = coalesce(error, $3)
       WHERE status = 'running' AND chorus_shard(session_key) = ANY($1::int[]) RETURNING *`,
      [shards, now, TAKEN_OVER],
    );
    const outbox = await tx.query(
      `UPDATE outbox SET status = 'pending', next_attempt_at = $4, updated_at = $2, last_error = $3
       WHERE status = 'in-flight' AND chorus_shard(session_key) = ANY($1::int[]) RETURNING *`,
      [shards, now, `outcome unknown: ${TAKEN_OVER} while it was being sent`, now + Math.max(0, graceMs)],
    );
    return {
      claimed,
      interruptedRuns: runs.rows.map(runFromRow).sort((a, b) => a.startedAt - b.startedAt),
      requeuedOutbox: outbox.rows.map(outboxFromRow).sort((a, b) => a.id - b.id),
    };
  });
}

/**
 * Gives shards up: every one of the instance's with its ingress leases (at shutdown, `shards` undefined) or those listed that no run of this
 * instance is running in and no reply of it is in flight (rebalancing: a send under way is not made a resend).
 * Contract: returns the shards released; their owner is cleared and their epoch raised, so the next claimer takes
 * them at once and a commit still carrying the old epoch (a turn that started as the shard was released) is refused.
 */
export async function releaseShards(db: Db, instanceId: string, shards?: readonly number[]): Promise<number[]> {
  if (shards === undefined) {
    const { rows } = await db.query(
      `WITH gone AS (DELETE FROM cluster_instances WHERE instance_id = $1),
       ingress AS (UPDATE ingress_leases SET owner = NULL, expires_at = 0 WHERE owner = $1),
       held AS (SELECT shard FROM shard_leases WHERE owner = $1 ORDER BY shard FOR NO KEY UPDATE)
       UPDATE shard_leases SET owner = NULL, expires_at = 0, epoch = epoch + 1
       WHERE shard IN (SELECT shard FROM held) AND owner = $1 RETURNING shard`,
      [instanceId],
    );
    return rows.map((row) => Number(row.shard));
  }
  // The rows are locked first, in a statement of their own: a commit holding one (FOR SHARE) is waited for, and the
  // checks below then run on a snapshot that sees its run ended and its reply in flight. Checked in the same
  // statement as the lock, they would see the snapshot from before the wait, and release a shard with a reply in
  // flight (the next owner would send it again).
  return db.atomically(async (tx) => {
    // In shard order, as a group commit's batch takes them (lock-order.ts).
    await tx.query(
      "SELECT shard FROM shard_leases WHERE owner = $1 AND shard = ANY($2::int[]) ORDER BY shard FOR UPDATE",
      [instanceId, shards],
    );
    const { rows } = await tx.query(
      `UPDATE shard_leases SET owner = NULL, expires_at = 0, epoch = epoch + 1
       WHERE owner = $1 AND shard = ANY($2::int[])
         AND NOT EXISTS (SELECT 1 FROM runs WHERE status = 'running' AND chorus_shard(session_key) = shard)
         AND NOT EXISTS (SELECT 1 FROM outbox WHERE status = 'in-flight' AND chorus_shard(session_key) = shard)
       RETURNING shard`,
      [instanceId, shards],
    );
    return rows.map((row) => Number(row.shard));
  });
}

/** A session with stored messages no commit answered, and where they are. */
export interface UnansweredRow {
  readonly session: ReturnType<typeof sessionFromRow>;
  readonly answeredSeq: number;
  readonly lastInboundSeq: number;
  /** The unanswered range of the transcript, when asked for. */
  readonly messages?: readonly TranscriptEntry[];
}

// The transcript after the answered seq up to the last inbound one, as [[seq, message JSON], …].
const UNANSWERED_MESSAGES = `(SELECT coalesce(json_agg(json_build_array(t.seq, t.message) ORDER BY t.seq), '[]')
  FROM transcript_messages t WHERE t.session_key = sessions.key
    AND t.seq > greatest(sessions.answered_seq, sessions.transcript_start_seq - 1)
    AND t.seq <= sessions.last_inbound_seq) AS unanswered_messages`;

/**
 * The unanswered sessions of some shards (a sweep, a takeover) or of one session (a wake-up: with its unanswered
 * messages, so that the owner needs no second read). One statement.
 */
export async function unansweredSessions(
  db: Db,
  where: { shards: readonly number[] } | { sessionKey: string },
): Promise<UnansweredRow[]> {
  const [condition, value] =
    "shards" in where ? ["chorus_shard(key) = ANY($1::int[])", where.shards] : ["key = $1", where.sessionKey];
  if ("shards" in where && where.shards.length === 0) return [];
  const { rows } = await db.query(
    `SELECT *${"sessionKey" in where ? `, ${UNANSWERED_MESSAGES}` : ""} FROM sessions WHERE ${condition}
       AND last_inbound_seq > answered_seq AND last_inbound_seq >= transcript_start_seq
     ORDER BY updated_at, key`,
    [value],
  );
  return rows.map((row: StoredRow) => ({
    session: sessionFromRow(row),
    answeredSeq: Number(row.answered_seq),
    lastInboundSeq: Number(row.last_inbound_seq),
    ...(row.unanswered_messages === undefined ? {} : { messages: transcriptEntries(row.unanswered_messages) }),
  }));
}

function transcriptEntries(json: unknown): TranscriptEntry[] {
  const pairs = parseJson<[number, string][]>(json);
  return pairs.map(([seq, message]) => ({ seq: Number(seq), message: JSON.parse(message) as AgentMessage }));
}

function parseJson<T>(json: unknown): T {
  return (typeof json === "string" ? JSON.parse(json) : json) as T;
}

function heldShards(json: unknown): HeldShard[] {
  const pairs = parseJson<[number, number][]>(json);
  return pairs.map(([shard, epoch]) => ({ shard: Number(shard), epoch: Number(epoch) }));
}

/** Instances that beat within this window are listed (a dead one's runs stay visible until they are taken over). */
const LISTED_INSTANCES_WINDOW_MS = 60_000;

/**
 * The instances that beat within the last minute: shards held unexpired, heartbeat age on the database's clock and
 * the runs each reported live. One statement.
 */
export async function clusterInstances(db: Db, self: string): Promise<ClusterInstance[]> {
  const { rows } = await db.query(
    `WITH clock AS (SELECT chorus_now_ms() AS now)
     SELECT i.instance_id, clock.now - i.heartbeat_at AS age, i.live_runs,
       (SELECT count(*) FROM shard_leases l WHERE l.owner = i.instance_id AND l.expires_at >= clock.now) AS shards
     FROM cluster_instances i, clock WHERE i.heartbeat_at > clock.now - $1 ORDER BY i.instance_id`,
    [LISTED_INSTANCES_WINDOW_MS],
  );
  return rows.map((row) => ({
    id: String(row.instance_id),
    self: row.instance_id === self,
    shards: Number(row.shards),
    beatAgeMs: Math.max(0, Number(row.age)),
    runs: reportedRuns(row.live_runs),
  }));
}

function reportedRuns(json: unknown): ReportedRun[] {
  const runs = (typeof json === "string" ? JSON.parse(json) : json) as ReportedRun[] | null;
  return (runs ?? []).map((run) => ({
    runId: String(run.runId),
    tokens: Number(run.tokens),
    cost: Number(run.cost),
    ...(typeof run.sessionKey === "string" ? { sessionKey: run.sessionKey } : {}),
    ...(typeof run.agentId === "string" ? { agentId: run.agentId } : {}),
    ...(typeof run.parentRunId === "string" ? { parentRunId: run.parentRunId } : {}),
    ...(typeof run.depth === "number" ? { depth: run.depth } : {}),
    ...(typeof run.startedAt === "number" ? { startedAt: run.startedAt } : {}),
  }));
}
