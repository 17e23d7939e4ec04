import { Writable } from "node:stream";
import { GatewayEventBus } from "@chorus/gateway";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { logRunEvents } from "../src/runtime/run-event-log.js";

function capturedLogger(level: string): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

function playTwoRuns(events: GatewayEventBus): void {
  const sessionKey = "assistant:main:telegram:dm:1";
  const base = { sessionKey, agentId: "assistant", accountId: "main", channel: "telegram", chatId: "1" };
  events.publish({ type: "message_received", at: 1_000, ...base, messageId: "m1", senderId: "1" });
  events.publish({ type: "run_started", at: 1_010, runId: "run_a", sessionKey, agentId: "assistant", depth: 0 });
  events.publish({
    type: "tool_activity",
    at: 1_020,
    runId: "run_a",
    sessionKey,
    toolCallId: "c1",
    toolName: "current_time",
    phase: "start",
  });
  events.publish({ type: "run_ended", at: 1_250, runId: "run_a", sessionKey, outcome: "completed" });
  events.publish({ type: "run_started", at: 2_000, runId: "run_b", sessionKey, agentId: "assistant", depth: 0 });
  events.publish({ type: "run_ended", at: 2_040, runId: "run_b", sessionKey, outcome: "failed", error: "boom" });
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe("the run log", () => {
  it("writes one line per run at info, when it ends, with its agent and duration", async () => {
    const events = new GatewayEventBus();
    const { logger, lines } = capturedLogger("info");
    logRunEvents(events, logger);
    playTwoRuns(events);
    await settle();
    expect(lines.map((line) => [line.msg, line.runId, line.durationMs, line.level])).toEqual([
      ["run ended", "run_a", 240, 30],
      ["run ended", "run_b", 40, 40],
    ]);
    expect(lines[0]).toMatchObject({ sessionKey: "assistant:main:telegram:dm:1", agentId: "assistant", depth: 0 });
    expect(lines[1]).toMatchObject({ outcome: "failed", error: "boom" });
  });

  it("at debug also shows each message, run start and tool call", async () => {
    const events = new GatewayEventBus();
    const { logger, lines } = capturedLogger("debug");
    logRunEvents(events, logger);
    playTwoRuns(events);
    await settle();
    expect(lines.map((line) => line.msg)).toEqual([
      "message received",
      "run started",
      "tool start",
      "run ended",
      "run started",
      "run ended",
    ]);
    expect(lines.every((line) => line.sessionKey === "assistant:main:telegram:dm:1")).toBe(true);
  });
});
