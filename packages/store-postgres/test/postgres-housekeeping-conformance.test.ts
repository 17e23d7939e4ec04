import { describeStoreHousekeepingConformance } from "@chorus/gateway-testing";
import { afterAll, beforeAll } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";
import { clockedPostgresStores } from "./fixtures/clocked-postgres-store.js";

let database: ScratchDatabase | undefined;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describeStoreHousekeepingConformance(
  "PostgresSessionStore",
  clockedPostgresStores(() => database?.url ?? ""),
);
