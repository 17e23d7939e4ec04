import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { adminDm, cleanUpChildren, freshDbPath, sentTexts, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const SESSION_KEY = "main:main:test:dm:admin";

it("drops a platform event delivered again after a SIGKILL and restart (a RESUME or getUpdates replay)", async () => {
  const dbPath = freshDbPath();
  const first = await startGatewayChild({ dbPath });
  first.inject(adminDm("hello", "evt-1"));
  await first.waitFor((line) => line.type === "marked-sent", "the reply was delivered");
  await first.kill();

  const second = await startGatewayChild({ dbPath });
  // The platform replays the event it thinks was not acknowledged, then a new one arrives.
  second.inject(adminDm("hello", "evt-1"));
  second.inject(adminDm("next", "evt-2"));
  await second.waitFor((line) => line.type === "marked-sent", "the reply to the new event was delivered");
  await second.kill();

  expect(sentTexts(first)).toEqual(["echo: hello"]);
  expect(sentTexts(second)).toEqual(["echo: next"]);
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    const users = (await store.readTranscript(SESSION_KEY)).filter((entry) => entry.message.role === "user");
    expect(users.map((entry) => (entry.message as { content: string }).content)).toEqual(["hello", "next"]);
  } finally {
    await store.close();
  }
});
