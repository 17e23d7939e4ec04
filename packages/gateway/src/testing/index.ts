// `@chorus/gateway/testing`: the SessionStore conformance suite every store package runs (needs vitest; kept out of
// the main entry so a program using the gateway never loads it).
export { CLOCK_START, type ClockedStore, clockedMemoryStore } from "./clocked-store.js";
export { describeSessionStoreConformance } from "./session-store-conformance.js";
export { describeStoreHousekeepingConformance } from "./store-housekeeping-conformance.js";
