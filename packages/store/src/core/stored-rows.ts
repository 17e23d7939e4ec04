import type { AgentMessage, Usage } from "@chorus/core";
import { parseMemoryMark } from "../memory-mark.js";
import type { PairingRequest } from "../pairing-types.js";
import type { QueueMode } from "../queue-mode.js";
import type {
  OutboxEntry,
  OutboxKind,
  OutboxStatus,
  RunRecord,
  RunSpawn,
  RunStatus,
  ScheduleRecord,
  ScheduleStatus,
  SessionRecord,
  StoredJson,
  TranscriptEntry,
} from "../store-types.js";
import { defineLazyJson } from "./lazy-json.js";
import { buildRunRecord, buildSessionRecord } from "./record-builders.js";

// The rows of the SQL stores (SQLite, PostgreSQL) have the same tables and columns; they become records here, once.

/**
 * A row as a SQL driver returns it, column name → value: integers may come as numbers, bigints or (node-postgres's
 * `bigint`) strings, and are read with `Number`.
 */
export type StoredRow = Record<string, unknown>;

function text(row: StoredRow, column: string): string {
  return String(row[column]);
}

function optionalText(row: StoredRow, column: string): string | undefined {
  const value = row[column];
  return value === null || value === undefined ? undefined : String(value);
}

function int(row: StoredRow, column: string): number {
  return Number(row[column]);
}

function optionalInt(row: StoredRow, column: string): number | undefined {
  const value = row[column];
  return value === null || value === undefined ? undefined : Number(value);
}

function jsonObjectOrEmpty(json: string): { readonly [key: string]: StoredJson } {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as { readonly [key: string]: StoredJson })
      : {};
  } catch {
    return {};
  }
}

/** Contract: the same record the memory store builds for the same writes. */
export function sessionFromRow(row: StoredRow): SessionRecord {
  return buildSessionRecord(
    {
      key: text(row, "key"),
      agentId: text(row, "agent_id"),
      channel: text(row, "channel"),
      accountId: text(row, "account_id"),
      chatId: text(row, "chat_id"),
    },
    {
      title: optionalText(row, "title"),
      modelOverride: optionalText(row, "model_override"),
      queueModeOverride: optionalText(row, "queue_mode_override") as QueueMode | undefined,
    },
    {
      settings: JSON.parse(text(row, "settings")) as Record<string, StoredJson>,
      createdAt: int(row, "created_at"),
      updatedAt: int(row, "updated_at"),
      lastSeq: int(row, "last_seq"),
      transcriptStartSeq: int(row, "transcript_start_seq"),
      memoryExtractedSeq: row.memory_extracted_seq == null ? undefined : Number(row.memory_extracted_seq),
    },
  );
}

/** A transcript row (`seq`, `message`, optional `memory_mark`) as an entry. */
export function transcriptEntryFromRow(row: StoredRow): TranscriptEntry {
  const entry = { seq: Number(row.seq), message: JSON.parse(String(row.message)) as AgentMessage };
  const memory = parseMemoryMark(row.memory_mark);
  return memory === undefined ? entry : { ...entry, memory };
}

/** The `runs` columns but `usage`, for a RETURNING clause when the usage is known already. */
export const RUN_COLUMNS_BUT_USAGE =
  "id, session_key, parent_run_id, depth, agent_id, status, started_at, ended_at, error, traceparent, spawn";

export function runFromRow(row: StoredRow): RunRecord {
  return runFromRowWithUsage(row, text(row, "usage"));
}

/** A run from its row (which may lack `usage`) and its usage JSON, parsed only if read. */
export function runFromRowWithUsage(row: StoredRow, usageJson: string): RunRecord {
  const run = buildRunRecord({
    id: text(row, "id"),
    sessionKey: text(row, "session_key"),
    parentRunId: optionalText(row, "parent_run_id"),
    depth: int(row, "depth"),
    agentId: text(row, "agent_id"),
    status: text(row, "status") as RunStatus,
    startedAt: int(row, "started_at"),
    endedAt: optionalInt(row, "ended_at"),
    usage: undefined as unknown as Usage, // replaced below, in the same key order
    error: optionalText(row, "error"),
    traceparent: optionalText(row, "traceparent"),
    spawn: runSpawnFromJson(optionalText(row, "spawn")),
  });
  return defineLazyJson(run, "usage", usageJson);
}

/** A run's `spawn` column (JSON text, or null) as the store writes it. */
export function runSpawnJson(spawn: RunSpawn | undefined): string | null {
  return spawn === undefined ? null : JSON.stringify(spawn);
}

function runSpawnFromJson(json: string | undefined): RunSpawn | undefined {
  return json === undefined ? undefined : (JSON.parse(json) as RunSpawn);
}

/** The `outbox` columns but `platform_message_ids`, for a RETURNING clause when the ids are known already. */
export const OUTBOX_COLUMNS_BUT_JSON =
  "id, session_key, run_id, kind, payload, status, attempts, created_at, updated_at, next_attempt_at, last_error, " +
  "traceparent";

export function outboxFromRow(row: StoredRow): OutboxEntry {
  return outboxEntry(row, JSON.parse(text(row, "payload")), JSON.parse(text(row, "platform_message_ids")) as string[]);
}

/** An outbox entry whose payload is parsed only if read (see `defineLazyJson`). */
export function outboxFromRowWithLazyPayload(row: StoredRow, platformMessageIds: readonly string[]): OutboxEntry {
  return defineLazyJson(outboxEntry(row, undefined, platformMessageIds), "payload", text(row, "payload"));
}

function outboxEntry(row: StoredRow, payload: unknown, platformMessageIds: readonly string[]): OutboxEntry {
  const runId = optionalText(row, "run_id");
  const lastError = optionalText(row, "last_error");
  const traceparent = optionalText(row, "traceparent");
  return {
    id: int(row, "id"),
    sessionKey: text(row, "session_key"),
    ...(runId !== undefined ? { runId } : {}),
    kind: text(row, "kind") as OutboxKind,
    payload,
    status: text(row, "status") as OutboxStatus,
    attempts: int(row, "attempts"),
    createdAt: int(row, "created_at"),
    updatedAt: int(row, "updated_at"),
    nextAttemptAt: int(row, "next_attempt_at"),
    ...(lastError !== undefined ? { lastError } : {}),
    platformMessageIds,
    ...(traceparent !== undefined ? { traceparent } : {}),
  };
}

export function pairingRequestFromRow(row: StoredRow): PairingRequest {
  return {
    scope: { channel: text(row, "channel"), accountId: text(row, "account_id") },
    code: text(row, "code"),
    senderId: text(row, "sender_id"),
    senderName: text(row, "sender_name"),
    createdAt: int(row, "created_at"),
    expiresAt: int(row, "expires_at"),
  };
}

/**
 * A schedule row as a record. Contract: never throws on a corrupt row — data that is not JSON reads as `{}`, which the
 * scheduler then reports and skips (one bad row must not stop start-up or every later tick).
 */
export function scheduleFromRow(row: StoredRow): ScheduleRecord {
  const nextRunAt = optionalInt(row, "next_run_at");
  return {
    id: text(row, "id"),
    status: text(row, "status") as ScheduleStatus,
    ...(nextRunAt === undefined ? {} : { nextRunAt }),
    data: jsonObjectOrEmpty(text(row, "data")),
    createdAt: int(row, "created_at"),
    updatedAt: int(row, "updated_at"),
  };
}
