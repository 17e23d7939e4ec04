import { clockedMemoryStore, describeSessionStoreConformance } from "../src/index.js";

describeSessionStoreConformance("MemorySessionStore", clockedMemoryStore);
