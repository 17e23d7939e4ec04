import type { AgentMessage } from "@chorus/core";
import type { MemoryMark } from "../memory-mark.js";
import type { SessionStoreOps } from "../session-store.js";
import type { AppendResult, NewOutboxEntry, NewRun, OutboxEntry, RunPatch, RunRecord } from "../store-types.js";

/** The synchronous twin of each async store operation. */
type SyncOps<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/**
 * The synchronous engine behind an embedded store (memory, SQLite). `CoreBackedSessionStore` turns it into the
 * async `SessionStore`, serialises transactions and builds `commitTurn` and `storeInboundMessage` from these operations.
 * Contract: each operation is atomic on its own; `begin`/`commit`/`rollback` bracket several; `atomically` nests inside an open one.
 */
/** What an append also records about the session's user messages (for `listUnansweredSessions`). */
export interface AppendMarks {
  /** The appended message is an inbound user message waiting for an answer. */
  inbound?: boolean;
  /** User messages up to this seq are answered. */
  answersSeq?: number;
  /** The appended messages' mark for long-term memory's extraction (`TranscriptEntry.memory`). */
  memory?: MemoryMark;
}

export interface SessionStoreCore
  extends SyncOps<Omit<SessionStoreOps, "commitTurn" | "storeInboundMessage" | "appendMessages">> {
  /** Appends messages with the next seqs, as `SessionStore.appendMessages`, recording `marks` in the same write. */
  appendMessages(sessionKey: string, messages: readonly AgentMessage[], marks?: AppendMarks): AppendResult;
  /** Opens a transaction. Contract: at most one is open at a time (the caller serialises). */
  begin(): void;
  commit(): void;
  /** Contract: undoes every write since `begin`; never throws for a transaction that is open. */
  rollback(): void;
  /**
   * Writes new outbox entries already claimed (`in-flight`, one attempt), as `enqueueOutbox` then `claimOutboxEntry`
   * on each would. Contract: the entries' ids, status and attempts are what those two calls would leave.
   */
  enqueueClaimedOutbox(entries: readonly NewOutboxEntry[]): OutboxEntry[];
  /**
   * A turn's run as its commit leaves it: started as `startRun` does unless it exists, then `patch` applied as
   * `updateRun` does. Contract: never a `conflict` error; `invalid-state` when the run already ended; with a patch,
   * one write on SQLite (a turn's commit calls it on every turn).
   */
  startOrPatchRun(input: NewRun, patch: RunPatch | undefined): RunRecord;
  /** Runs `fn` in its own transaction, or inside the one already open. */
  atomically<T>(fn: () => T): T;
  /** The engine's connection handed to a turn's `sideWrites.sync` (SQLite: its `DatabaseSync`); none in memory. */
  readonly connection?: unknown;
  /** Turns an engine failure into a `SessionStoreError` where one applies; returns anything else unchanged. */
  translateError(error: unknown): unknown;
  /** Releases the engine; may finish background work first. */
  close(): void | Promise<void>;
}
