// `@chorus/gateway/store`: the SessionStore contract, the in-memory store and the core every store shares — what a
// store package (@chorus/store-sqlite, a Postgres store) builds on. Type-only imports beyond this folder, so it loads
// without the rest of the gateway (the crash tests run a store in a bare child process).
export {
  type MeasureOptions,
  measureSessionStore,
  type SessionStoreMeasurement,
} from "./bench/measure-session-store.js";
export * from "./core/index.js";
export { MemorySessionStore, type MemorySessionStoreOptions } from "./memory/memory-session-store.js";
export { MEMORY_OFF_SETTING, type MemoryMark, memoryMarkFor, parseMemoryMark } from "./memory-mark.js";
export type { SessionStore, SessionStoreOps, SessionStoreTransaction } from "./session-store.js";
export {
  isSessionStoreError,
  isTransientStoreError,
  SessionStoreError,
  type SessionStoreErrorCode,
} from "./session-store-error.js";
export type * from "./store-types.js";
