import { describeSessionStoreConformance } from "@chorus/gateway-testing";
import { clockedSqliteStore } from "./fixtures/clocked-sqlite-store.js";

describeSessionStoreConformance("SqliteSessionStore", clockedSqliteStore);
