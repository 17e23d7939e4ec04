import { cutMissText, MEMORY_MISS_OUTCOME, type MemoryMiss, type NewMemoryMiss } from "./memory-miss.js";

/** The columns of `memory_misses`, in the order of `missValues`. */
export const MISS_COLUMNS = "agent_id, session_key, query, strategy, reason, error, at";

/** A miss as both stores keep it (Postgres returns bigints as strings). */
export interface MissRow {
  agent_id: string;
  session_key: string;
  query: string;
  strategy: string;
  reason: string;
  error: string;
  at: number | string;
}

/** A miss's column values, its texts cut to `MEMORY_MISS_QUERY_CHARS`. */
export function missValues(miss: NewMemoryMiss): [string, string, string, string, string, string, number] {
  return [
    miss.agentId,
    miss.sessionKey,
    cutMissText(miss.query),
    miss.strategy,
    miss.reason,
    cutMissText(miss.error),
    miss.at,
  ];
}

export function missFromRow(row: MissRow): MemoryMiss {
  return {
    outcome: MEMORY_MISS_OUTCOME,
    agentId: row.agent_id,
    sessionKey: row.session_key,
    query: row.query,
    strategy: row.strategy as MemoryMiss["strategy"],
    reason: row.reason as MemoryMiss["reason"],
    error: row.error,
    at: Number(row.at),
  };
}

/** A store's `maxMisses` option, checked: a positive whole number. */
export function checkMaxMisses(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`maxMisses must be a whole number ≥ 1, got ${value}`);
  return value;
}
