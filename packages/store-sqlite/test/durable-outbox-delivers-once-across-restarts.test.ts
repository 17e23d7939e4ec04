import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { adminDm, cleanUpChildren, freshDbPath, sentTexts, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const SESSION_KEY = "main:main:test:dm:admin";
const MARKER = "\n\n_(resent after restart)_";

async function outboxStatuses(dbPath: string): Promise<string[]> {
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    return (await store.listOutbox({ sessionKey: SESSION_KEY })).map((entry) => entry.status);
  } finally {
    await store.close();
  }
}

it("resends a reply whose send happened before the kill (but was not marked sent) once, with a visible marker", async () => {
  const dbPath = freshDbPath();
  const first = await startGatewayChild({ dbPath, send: "hang-after" });
  first.inject(adminDm("hello", "m-1"));
  // The platform has the message; the process dies before it can record that.
  await first.waitFor((line) => line.type === "sent", "the reply reached the platform");
  await first.kill();

  const second = await startGatewayChild({ dbPath });
  await second.waitFor((line) => line.type === "marked-sent", "the resend was marked sent");
  await second.kill();

  expect(sentTexts(first)).toEqual(["echo: hello"]);
  // The chat sees the reply twice at most, and the second copy says why.
  expect(sentTexts(second)).toEqual([`echo: hello${MARKER}`]);
  expect(await outboxStatuses(dbPath)).toEqual(["sent"]);
});

it("delivers a reply claimed but not yet sent at the kill exactly once after the restart", async () => {
  const dbPath = freshDbPath();
  const first = await startGatewayChild({ dbPath, send: "hang-before" });
  first.inject(adminDm("hello", "m-1"));
  await first.waitFor((line) => line.type === "send-attempt", "the send began");
  await first.kill();

  const second = await startGatewayChild({ dbPath });
  await second.waitFor((line) => line.type === "marked-sent", "the reply was marked sent");
  await second.kill();

  expect(sentTexts(first)).toEqual([]);
  // In flight at the crash, so the gateway cannot know it was never sent: one delivery, marked as a possible resend.
  expect(sentTexts(second)).toEqual([`echo: hello${MARKER}`]);
  expect(await outboxStatuses(dbPath)).toEqual(["sent"]);
});

it("delivers a pending reply (its first send failed) after a restart, once and unmarked", async () => {
  const dbPath = freshDbPath();
  const first = await startGatewayChild({ dbPath, send: "fail-retryable" });
  first.inject(adminDm("hello", "m-1"));
  await first.waitFor((line) => line.type === "marked-failed", "the failed send was stored for a retry");
  await first.kill();
  expect(await outboxStatuses(dbPath)).toEqual(["pending"]);

  const second = await startGatewayChild({ dbPath });
  await second.waitFor((line) => line.type === "marked-sent", "the reply was marked sent");
  await second.kill();

  expect(sentTexts(first)).toEqual([]);
  expect(sentTexts(second)).toEqual(["echo: hello"]);
  expect(await outboxStatuses(dbPath)).toEqual(["sent"]);
});
