import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { afterEach, beforeEach, describe } from "vitest";
import { todosAcrossRestarts } from "./describe-todos-across-restarts.js";

let database: ScratchDatabase;
beforeEach(async () => {
  database = await createScratchDatabase();
});
afterEach(async () => {
  await database.drop();
});

describe("the session todo list through the gateway on PostgreSQL", () => {
  todosAcrossRestarts(async () => PostgresSessionStore.open({ url: database.url }));
});
