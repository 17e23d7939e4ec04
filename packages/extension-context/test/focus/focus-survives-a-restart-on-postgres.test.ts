import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { afterEach, beforeEach, describe } from "vitest";
import { focusAcrossRestarts } from "./describe-focus-across-restarts.js";

let database: ScratchDatabase;
beforeEach(async () => {
  database = await createScratchDatabase();
});
afterEach(async () => {
  await database.drop();
});

describe("the Focus strategy through the gateway on PostgreSQL", () => {
  focusAcrossRestarts(async () => PostgresSessionStore.open({ url: database.url }));
});
