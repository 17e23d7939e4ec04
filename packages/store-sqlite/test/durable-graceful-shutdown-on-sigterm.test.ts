import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { adminDm, cleanUpChildren, freshDbPath, sentTexts, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const SESSION_KEY = "main:main:test:dm:admin";
const SHUTDOWN_NOTICE = "The bot is restarting; this task was stopped. Send your message again afterwards.";

async function runStatuses(dbPath: string): Promise<string[]> {
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    return (await store.listRuns({ sessionKey: SESSION_KEY })).map((run) => run.status);
  } finally {
    await store.close();
  }
}

it("lets a running turn finish and deliver its reply within the deadline, taking no new messages meanwhile", async () => {
  const dbPath = freshDbPath();
  const child = await startGatewayChild({ dbPath, stopDeadlineMs: 15_000 });
  child.inject(adminDm("slow", "m-1"));
  await child.waitFor((line) => line.type === "model-call", "the model was called");
  child.process.kill("SIGTERM");
  await child.waitFor((line) => line.type === "stopping", "the child began to stop");
  child.inject(adminDm("too late", "m-2"));

  expect(await child.exited).toEqual({ code: 0, signal: null });
  const lines = child.lines.map((line) => line.type);
  expect(lines.indexOf("marked-sent")).toBeLessThan(lines.indexOf("stopped"));
  expect(sentTexts(child)).toEqual(["slow answer"]);
  expect(await runStatuses(dbPath)).toEqual(["completed"]);
});

it("aborts a turn still running at the deadline, persists it, and delivers the undelivered notice after restart", async () => {
  const dbPath = freshDbPath();
  // Every send fails (retryably) in the first process: what it queues can only leave from the outbox later.
  const first = await startGatewayChild({ dbPath, send: "fail-retryable", stopDeadlineMs: 200 });
  first.inject(adminDm("hang", "m-1"));
  await first.waitFor((line) => line.type === "model-call", "the model was called");
  first.process.kill("SIGTERM");
  expect(await first.exited).toEqual({ code: 0, signal: null });
  expect(sentTexts(first)).toEqual([]);
  expect(await runStatuses(dbPath)).toEqual(["aborted"]);

  const second = await startGatewayChild({ dbPath });
  await second.waitFor((line) => line.type === "marked-sent", "the notice was delivered");
  await second.kill();
  // Stopped cleanly, so nothing was in flight: no resend marker, no restart notice.
  expect(sentTexts(second)).toEqual([SHUTDOWN_NOTICE]);
});
