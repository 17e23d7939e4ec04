import { describeStoreHousekeepingConformance } from "@chorus/gateway-testing";
import { clockedSqliteStore } from "./fixtures/clocked-sqlite-store.js";

describeStoreHousekeepingConformance("SqliteSessionStore", clockedSqliteStore);
