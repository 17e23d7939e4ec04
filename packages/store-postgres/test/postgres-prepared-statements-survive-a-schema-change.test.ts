import { afterAll, beforeAll, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "../src/testing/index.js";

// The hot statements are prepared once per connection. Another instance migrating the schema under a running one
// (a rolling upgrade adding a column) must not break them: "cached plan must not change result type" is retried.

let database: ScratchDatabase;
let store: PostgresSessionStore;
beforeAll(async () => {
  database = await createScratchDatabase();
  store = await PostgresSessionStore.open({ url: database.url, poolSize: 1 });
});
afterAll(async () => {
  await store?.close();
  await database.drop();
});

const session = { key: "main:bot:telegram:dm:7", agentId: "main", channel: "telegram", accountId: "bot", chatId: "7" };
const said = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });
const inbound = (eventId: string) =>
  store.storeInboundMessage({
    event: { channel: "telegram", accountId: "bot", eventId },
    session,
    message: said(eventId),
  });

it("keeps storing messages after a column is added to the tables its prepared statements return", async () => {
  expect((await inbound("before"))?.seq).toBe(1);
  await queryOnce(database.url, "ALTER TABLE sessions ADD COLUMN added_by_a_newer_version text");
  expect((await inbound("after"))?.seq).toBe(2);
  expect((await inbound("later"))?.seq).toBe(3);
  expect((await store.readTranscript(session.key)).map((entry) => entry.message)).toEqual([
    said("before"),
    said("after"),
    said("later"),
  ]);
});
