import { defineTool, type ToolOutput } from "@chorus/core";
import { MemorySessionStore } from "@chorus/store";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const SESSION_KEY = "main:main:test:dm:admin";

let capture: TelemetryCapture;
let crashed: Harness | undefined;
let restarted: Harness | undefined;
let release: () => void = () => {};

beforeEach(() => {
  capture = captureTelemetry();
});

afterEach(async () => {
  release();
  await restarted?.close();
  await crashed?.close();
  crashed = undefined;
  restarted = undefined;
  await capture.stop();
});

/** A tool that works until the test lets it go: the first process "dies" while it runs. */
function slowTool(started: () => void) {
  return defineTool({
    name: "slow",
    description: "works for a long time",
    parameters: z.object({}),
    category: "info",
    execute: () => {
      started();
      return new Promise<ToolOutput>((resolve) => {
        release = () => resolve({ content: [{ type: "text", text: "finished" }] });
      });
    },
  });
}

it("stores the run's span with its first commit, and the turn resumed after a restart links to it", async () => {
  const store = new MemorySessionStore();
  let toolStarted: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    toolStarted = resolve;
  });
  const tools = { agents: { main: { tools: [slowTool(() => toolStarted())] } } };
  crashed = await startHarness({
    store,
    script: (ctx) => (ctx.messages.length === 1 ? { toolCalls: [{ name: "slow", args: {} }] } : "done"),
    gateway: tools,
  });
  void crashed.channel.inject({ text: "work on it", sender: { id: "admin", name: "Admin" } });
  await running;

  // The tool call was committed before the tool ran, and the run with it: its span is stored with the run.
  const [interrupted] = await store.listRuns({ status: "running" });
  const firstChat = capture.spans().find((span) => span.name === "chat fake-model") as ReadableSpan;
  expect(interrupted?.traceparent).toBe(
    `00-${firstChat.spanContext().traceId}-${firstChat.parentSpanContext?.spanId}-01`,
  );

  // A second process on the same store takes over, as after a crash, and resumes the run by itself.
  restarted = await startHarness({ store, script: () => "picked up", gateway: { ...tools, onRestart: "resume" } });
  await restarted.gateway.idle();
  expect(restarted.channel.transcript("dm-admin").at(-1)).toBe("picked up");

  const resumed = capture.spans().filter((span) => span.name === "invoke_agent main");
  expect(resumed).toHaveLength(1); // the interrupted run's span never ended in the "dead" process
  const [traceId, spanId] = (interrupted?.traceparent ?? "").split("-").slice(1, 3);
  expect(resumed[0]?.links).toEqual([
    {
      context: expect.objectContaining({ traceId, spanId, isRemote: true }),
      attributes: { "chorus.link.type": "resumes" },
      droppedAttributesCount: 0,
    },
  ]);
  // The resumed run is a trace of its own, linked, not a child of the dead process's span.
  expect(resumed[0]?.spanContext().traceId).not.toBe(traceId);
  const runs = await store.listRuns({ sessionKey: SESSION_KEY, status: ["interrupted", "completed"] });
  expect(runs.map((run) => run.status)).toEqual(["interrupted", "completed"]);
  expect(runs[1]?.traceparent).toBe(`00-${resumed[0]?.spanContext().traceId}-${resumed[0]?.spanContext().spanId}-01`);
});

it("resumes without a link when the interrupted run was not traced", async () => {
  const store = new MemorySessionStore();
  await store.ensureSession({
    key: SESSION_KEY,
    agentId: "main",
    channel: "test",
    accountId: "main",
    chatId: "dm-admin",
  });
  await store.commitTurn({
    sessionKey: SESSION_KEY,
    messages: [{ role: "user", content: "work on it", timestamp: 1 }],
    run: { id: "run-untraced", start: { agentId: "main" } },
  });
  restarted = await startHarness({ store, script: () => "picked up", gateway: { onRestart: "resume" } });
  await restarted.gateway.idle();
  const [resumed] = capture.spans().filter((span) => span.name === "invoke_agent main");
  expect(resumed?.links).toEqual([]);
});
