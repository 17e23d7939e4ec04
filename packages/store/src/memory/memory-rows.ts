import { toStoredJson } from "../core/store-validation.js";
import type { PairingScope } from "../pairing-types.js";
import type { OutboxEntry, ScheduleRecord } from "../store-types.js";

// How the in-memory store holds its rows: the map keys, the JSON kept as text, and the frozen copies it hands out.
// Rows are frozen and replaced, never mutated, so a returned record is a safe snapshot.

/** An outbox entry as held in memory: the payload stays a JSON string until read. */
export type HeldOutboxEntry = Omit<OutboxEntry, "payload"> & { readonly payloadJson: string };

/** A schedule as held in memory: `data` kept as its JSON text. */
export type HeldSchedule = Omit<ScheduleRecord, "data"> & { readonly dataJson: string };

/** The key of a pending pairing request: [channel, account, code]. */
export function requestKey(scope: PairingScope, code: string): string {
  return JSON.stringify([scope.channel, scope.accountId, code]);
}

/** The key of an approved sender: [channel, account, sender]. */
export function senderKey(scope: PairingScope, senderId: string): string {
  return JSON.stringify([scope.channel, scope.accountId, senderId]);
}

/** The key of one transcript message's memory mark. */
export function markKey(sessionKey: string, seq: number): string {
  return `${sessionKey}\n${seq}`;
}

/** The outbox entry a caller sees: the payload parsed afresh, so callers never share objects with the store. */
export function reveal(held: HeldOutboxEntry): OutboxEntry {
  const { payloadJson, ...rest } = held;
  return { ...rest, payload: JSON.parse(payloadJson) as unknown };
}

/** The schedule a caller sees: `data` parsed afresh, as `reveal` does for outbox payloads. */
export function scheduleOf(held: HeldSchedule): ScheduleRecord {
  const { dataJson, ...rest } = held;
  return { ...rest, data: JSON.parse(dataJson) as ScheduleRecord["data"] };
}

/** A JSON round trip: the same value the SQLite store would give back, detached from the caller's objects. */
export function cloneJson<T>(value: T, what: string): T {
  return JSON.parse(toStoredJson(value, what)) as T;
}

/** Freezes a record and everything inside it (records are JSON data). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Code-unit order, matching SQLite's BINARY collation for the ids used here. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
