// `@chorus/store`: the SessionStore contract, the in-memory store and the core every store shares — what a store
// package (@chorus/store-sqlite, @chorus/store-postgres) builds on — and the cluster's ownership contracts. It depends
// on @chorus/core's types alone, so a store loads without the gateway (the crash tests run one in a bare child process).
export {
  type MeasureOptions,
  measureSessionStore,
  type SessionStoreMeasurement,
} from "./bench/measure-session-store.js";
export * from "./core/index.js";
export { describeError } from "./describe-error.js";
export type { InstanceBroadcast } from "./instance-broadcast.js";
export { MemorySessionStore, type MemorySessionStoreOptions } from "./memory/memory-session-store.js";
export { MEMORY_OFF_SETTING, type MemoryMark, memoryMarkFor, parseMemoryMark } from "./memory-mark.js";
export type { PairingInsertResult, PairingRequest, PairingScope, PairingStore } from "./pairing-types.js";
export { QUEUE_MODES, type QueueMode } from "./queue-mode.js";
export * from "./session-key/index.js";
export type {
  ClusterFleet,
  ClusterInstance,
  ClusterSignal,
  HandedOffMessage,
  OwnershipEvent,
  ReportedRun,
  SessionOwnership,
  UnansweredSession,
} from "./session-ownership.js";
export { dropSessionSettings, writeSessionSetting } from "./session-settings.js";
export type { SessionStore, SessionStoreOps, SessionStoreTransaction } from "./session-store.js";
export {
  isSessionStoreError,
  isTransientStoreError,
  SessionStoreError,
  type SessionStoreErrorCode,
} from "./session-store-error.js";
export { addSpend, NO_SPEND, type Spend, subtractSpend, utcDay, utcDayStart, utcMonthStart } from "./spend-window.js";
export type * from "./store-types.js";
export type { TrustTier } from "./trust-tier.js";
