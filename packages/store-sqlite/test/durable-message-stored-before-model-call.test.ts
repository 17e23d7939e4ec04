import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { adminDm, cleanUpChildren, freshDbPath, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const SESSION_KEY = "main:main:test:dm:admin";

it("keeps the user's message when the gateway is killed with SIGKILL during the model call", async () => {
  const dbPath = freshDbPath();
  const first = await startGatewayChild({ dbPath });
  first.inject(adminDm("hang", "m-1"));
  // The model call is under way (and never answers): the worst moment to die.
  await first.waitFor((line) => line.type === "model-call" && line.text === "hang", "the model was called");
  await first.kill();

  // A second process on the same file finds the message (and no run: a turn's run is written by its first commit).
  const second = await startGatewayChild({ dbPath });
  await second.kill();
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    const transcript = await store.readTranscript(SESSION_KEY);
    expect(transcript.map((entry) => entry.message)).toEqual([
      expect.objectContaining({ role: "user", content: "hang" }),
    ]);
    const runs = await store.listRuns({ sessionKey: SESSION_KEY });
    expect(runs).toEqual([]);
  } finally {
    await store.close();
  }
});
