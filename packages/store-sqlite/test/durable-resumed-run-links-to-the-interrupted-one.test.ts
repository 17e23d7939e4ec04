import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { adminDm, type ChildLine, cleanUpChildren, freshDbPath, startGatewayChild } from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const SESSION_KEY = "main:main:test:dm:admin";

const spans = (lines: readonly ChildLine[], name: string) =>
  lines.filter((line) => line.type === "span" && line.name === name);

it("links the turn resumed after a SIGKILL to the interrupted run's span, stored with the run in SQLite", async () => {
  const dbPath = freshDbPath();
  const first = await startGatewayChild({ dbPath, traces: true });
  first.inject(adminDm("tool", "m-1"));
  await first.waitFor((line) => line.type === "tool-start", "the tool started");
  await first.kill();
  // The interrupted run's invoke_agent span never ended; its model call did, as its child.
  const [firstCall] = spans(first.lines, "chat fake-model");
  expect(firstCall?.parentSpanId).toMatch(/^[0-9a-f]{16}$/);

  const second = await startGatewayChild({ dbPath, onRestart: "resume", traces: true });
  await second.waitFor(
    (line) => line.type === "sent" && (line.text ?? "").startsWith("continuing after:"),
    "the resumed run answered",
  );
  await second.kill();

  const resumed = spans(second.lines, "invoke_agent main");
  expect(resumed).toHaveLength(1);
  expect(resumed[0]?.links).toEqual([
    {
      traceId: firstCall?.traceId,
      spanId: firstCall?.parentSpanId,
      traceFlags: 1,
      isRemote: true,
      attributes: { "chorus.link.type": "resumes" },
    },
  ]);
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    const runs = await store.listRuns({ sessionKey: SESSION_KEY });
    expect(runs.map((run) => [run.status, run.traceparent])).toEqual([
      ["interrupted", `00-${firstCall?.traceId}-${firstCall?.parentSpanId}-01`],
      ["completed", `00-${resumed[0]?.traceId}-${resumed[0]?.spanId}-01`],
    ]);
  } finally {
    await store.close();
  }
});
