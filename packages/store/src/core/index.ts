// The store core every SessionStore implementation shares (the memory store here, @chorus/store-sqlite, a Postgres
// store next): a backend implements `SessionStoreCore` (or `NestingStoreCore` for group commit) and wraps it in
// `CoreBackedSessionStore`, which supplies the transactions, turn commits and validation every store must agree on.
export { CoreBackedSessionStore } from "./core-backed-store.js";
export { GroupCommit, type NestingStoreCore } from "./group-commit.js";
export { defineLazyJson } from "./lazy-json.js";
export { RECLAIMED_IN_FLIGHT_ERROR, staleClaimBefore } from "./reclaimed-in-flight.js";
export { buildRunRecord, buildSessionRecord, patched } from "./record-builders.js";
export {
  addByRewrite,
  compareSpendKeys,
  type HeldSpend,
  holdFits,
  holdLimits,
  holdSpendOn,
  mergeBookings,
  recordSpendOn,
  type SpendLedgerOps,
  type SpendTable,
  settleSpendOn,
  spendKeyText,
  spendLedgerOps,
  spendRowFromRow,
  zeroSpendRow,
} from "./spend-ledger.js";
export type { AppendMarks, SessionStoreCore } from "./store-core.js";
export {
  assertRunning,
  checkLimit,
  DEFAULT_INBOUND_EVENT_TTL_MS,
  notFound,
  statusList,
  toStoredJson,
} from "./store-validation.js";
export {
  OUTBOX_COLUMNS_BUT_JSON,
  outboxFromRow,
  outboxFromRowWithLazyPayload,
  pairingRequestFromRow,
  RUN_COLUMNS_BUT_USAGE,
  runFromRow,
  runFromRowWithUsage,
  runSpawnJson,
  type StoredRow,
  scheduleFromRow,
  sessionFromRow,
  transcriptEntryFromRow,
} from "./stored-rows.js";
export { timeOrderedId } from "./time-ordered-id.js";
export { zeroUsage } from "./zero-usage.js";
