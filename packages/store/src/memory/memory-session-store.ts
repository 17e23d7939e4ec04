import { CoreBackedSessionStore } from "../core/core-backed-store.js";
import { type EmbeddedStoreOptions, MemoryStoreCore } from "./memory-store-core.js";

/** Options of the in-memory store. */
export type MemorySessionStoreOptions = EmbeddedStoreOptions;

/**
 * A `SessionStore` held in process memory: for tests, benchmarks and throwaway gateways.
 * Contract: the same behaviour as `SqliteSessionStore` (one conformance suite runs on both), minus durability —
 * everything is gone when the process ends.
 */
export class MemorySessionStore extends CoreBackedSessionStore {
  constructor(options: MemorySessionStoreOptions = {}) {
    super(new MemoryStoreCore(options));
  }
}
