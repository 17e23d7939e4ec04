import { describeStoreHousekeepingConformance } from "@chorus/gateway/testing";
import { afterAll, beforeAll } from "vitest";
import { clockedPostgresStores } from "./fixtures/clocked-postgres-store.js";
import { createScratchDatabase, type ScratchDatabase } from "./fixtures/scratch-database.js";

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
