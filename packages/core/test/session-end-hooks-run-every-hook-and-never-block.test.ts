import { describe, expect, it } from "vitest";
import { type AgentHook, type HookEvent, runHooks } from "../src/index.js";

// Seed 003 "Session end": the app fires session_end through the same runner as the loop's hooks; it cannot block.
describe("session_end hooks", () => {
  it("every hook runs with the event, a failing one is logged, and the outcome is always continue", async () => {
    const seen: HookEvent[] = [];
    const warnings: Record<string, unknown>[] = [];
    const failing: AgentHook = () => {
      throw new Error("audit disk full");
    };
    const refusing: AgentHook = () => ({ kind: "block", reason: "no" });
    const recording: AgentHook = (event) => {
      seen.push(event);
      return undefined;
    };
    const event: HookEvent = { event: "session_end", sessionId: "main:dm:alice", agent: "main", reason: "cleared" };
    const outcome = await runHooks(
      { session_end: [failing, refusing, recording] },
      event,
      new AbortController().signal,
      { warn: (fields) => warnings.push(fields) },
    );
    expect(outcome).toEqual({ kind: "continue" });
    expect(seen).toEqual([event]);
    expect(warnings).toEqual([
      { hookEvent: "session_end", err: "audit disk full" },
      { hookEvent: "session_end", err: "no" },
    ]);
  });
});
