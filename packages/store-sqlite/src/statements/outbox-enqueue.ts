import type { NewOutboxEntry, OutboxEntry } from "@chorus/store";
import { toStoredJson } from "@chorus/store";
import type { SqliteContext } from "./sqlite-context.js";

/** Writes new outbox entries waiting for a sender (`pending`, no attempt yet). */
export function enqueueOutbox(sqlite: SqliteContext, entries: readonly NewOutboxEntry[]): OutboxEntry[] {
  return insertOutbox(sqlite, entries, "pending");
}

/** Writes new outbox entries already claimed by their sender (`in-flight`, one attempt). */
export function enqueueClaimedOutbox(sqlite: SqliteContext, entries: readonly NewOutboxEntry[]): OutboxEntry[] {
  return insertOutbox(sqlite, entries, "in-flight");
}

function insertOutbox(
  sqlite: SqliteContext,
  entries: readonly NewOutboxEntry[],
  status: "pending" | "in-flight",
): OutboxEntry[] {
  const payloads = entries.map((entry) => toStoredJson(entry.payload, "outbox payload"));
  const at = sqlite.now();
  // Status and attempts are literals (one cached statement each) so the partial index's WHERE stays plain.
  const insert = sqlite.sql(
    status === "pending"
      ? `INSERT INTO outbox (session_key, run_id, kind, payload, status, created_at, updated_at, next_attempt_at,
           traceparent)
         VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?)`
      : `INSERT INTO outbox (session_key, run_id, kind, payload, status, attempts, created_at, updated_at,
           next_attempt_at, traceparent)
         VALUES (?, ?, ?, ?, 'in-flight', 1, ?, ?, ?, ?)`,
  );
  // The entry is built from what was written (no RETURNING row to decode); the payload is read back as a JSON round
  // trip of the caller's, detached from it, as the memory store gives it.
  return entries.map((entry, index) => {
    const payload = payloads[index] as string;
    const nextAttemptAt = entry.nextAttemptAt ?? at;
    const written = insert.run(
      entry.sessionKey,
      entry.runId ?? null,
      entry.kind,
      payload,
      at,
      at,
      nextAttemptAt,
      entry.traceparent ?? null,
    );
    return {
      id: Number(written.lastInsertRowid),
      sessionKey: entry.sessionKey,
      ...(entry.runId !== undefined ? { runId: entry.runId } : {}),
      kind: entry.kind,
      payload: JSON.parse(payload) as unknown,
      status,
      attempts: status === "pending" ? 0 : 1,
      createdAt: at,
      updatedAt: at,
      nextAttemptAt,
      platformMessageIds: [],
      ...(entry.traceparent !== undefined ? { traceparent: entry.traceparent } : {}),
    };
  });
}
