import { clockedMemoryStore, describeSessionStoreConformance } from "../src/testing/index.js";

describeSessionStoreConformance("MemorySessionStore", clockedMemoryStore);
