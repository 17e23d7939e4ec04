import { describe, expect, it, vi } from "vitest";
import { Agent, type AgentMessage, SessionMemory, type SessionMemorySnapshot } from "../../src/index.js";
import { fakeModel, scriptedStreamFn } from "../../src/testing/index.js";
import { textOf } from "../support/test-tools.js";
import { big, chat } from "./session-memory-fixtures.js";

const model = fakeModel();
const cheap = fakeModel({ id: "cheap-model" });

/** An Agent whose events feed `memory`, as a host wires it. */
function agentWith(memory: SessionMemory, history: AgentMessage[], reply: string | (() => string) = "answer") {
  const streamFn = scriptedStreamFn(() => (typeof reply === "string" ? reply : reply()));
  const agent = new Agent({ model, streamFn, messages: history });
  agent.subscribe((event) => memory.observe(event, agent.state.messages));
  return agent;
}

describe("the session memory is refreshed off the turn's critical path", () => {
  it("never blocks a turn: the turn ends while the refresh is still running", async () => {
    const refresh = scriptedStreamFn([{ fault: "hang" }]);
    const memory = new SessionMemory({ model: cheap, streamFn: refresh, sessionId: "s1" });
    const agent = agentWith(memory, chat(3, 1_000));
    const ended = await Promise.race([
      agent.prompt("next").then(() => "turn ended"),
      new Promise((resolve) => setTimeout(() => resolve("timed out"), 2_000)),
    ]);
    expect(ended).toBe("turn ended");
    expect(refresh.calls).toHaveLength(1);
    expect(refresh.calls[0]?.options).toMatchObject({ purpose: "session_memory", sessionId: "s1" });
    expect(refresh.calls[0]?.model.id).toBe("cheap-model");
    expect(memory.current()).toBeUndefined();
    memory.release();
    await memory.whenIdle();
    expect(memory.current()).toBeUndefined();
  });

  it("keeps the refreshed summary with the last message it covers, and refreshes incrementally after", async () => {
    const stored: (SessionMemorySnapshot | undefined)[] = [];
    const refresh = scriptedStreamFn(["summary one", "summary two"]);
    const memory = new SessionMemory({ model: cheap, streamFn: refresh, onChange: (s) => stored.push(s) });
    const agent = agentWith(memory, chat(3, 1_000));
    await agent.prompt("next");
    await memory.whenIdle();
    const covered = agent.state.messages.length - 1;
    expect(memory.current()).toMatchObject({ text: "summary one", covered: { index: covered, role: "assistant" } });
    expect(stored.at(-1)).toMatchObject({ version: 1, text: "summary one", covered: { index: covered } });

    // Below the token threshold: no refresh.
    await agent.prompt("short");
    await memory.whenIdle();
    expect(refresh.calls).toHaveLength(1);

    await agent.prompt(`long ${big(5_000)}`);
    await memory.whenIdle();
    expect(refresh.calls).toHaveLength(2);
    const second = refresh.calls[1]?.context.messages ?? [];
    expect(textOf(second[0])).toContain("summary one");
    // Only what followed the covered message is sent again: the old chat is not.
    expect(second.some((m) => textOf(m).startsWith("q0"))).toBe(false);
    expect(second.some((m) => textOf(m) === "short")).toBe(true);
    expect(memory.current()?.text).toBe("summary two");
  });

  it("a failing refresh is logged and harmless: the turn and the summary are as they were", async () => {
    const warn = vi.fn();
    const refresh = scriptedStreamFn([{ fault: "error", error: { kind: "overloaded", message: "busy" } }, "later"]);
    const memory = new SessionMemory({ model: cheap, streamFn: refresh, logger: { warn } });
    const agent = agentWith(memory, chat(3, 1_000));
    const result = await agent.prompt("next");
    await memory.whenIdle();
    expect(result.reason).toBe("completed");
    expect(memory.current()).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.stringMatching(/busy/) }),
      expect.any(String),
    );
    await agent.prompt("again");
    await memory.whenIdle();
    expect(memory.current()?.text).toBe("later");
  });

  it("drops a reply that lands after the transcript moved (a fresh start)", async () => {
    const refresh = scriptedStreamFn([{ text: "too late", endDelayMs: 30 }]);
    const memory = new SessionMemory({ model: cheap, streamFn: refresh });
    const agent = agentWith(memory, chat(3, 1_000));
    await agent.prompt("next");
    memory.reset();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(memory.current()).toBeUndefined();
  });

  it("refreshes mid-run after ten tool calls once the token threshold passed (the seed's trigger)", () => {
    const refresh = scriptedStreamFn(() => "s");
    const memory = new SessionMemory({ model: cheap, streamFn: refresh });
    const withCalls = (n: number): AgentMessage[] => [
      ...chat(3, 1_000),
      {
        role: "assistant",
        content: Array.from({ length: n }, (_, i) => ({ type: "toolCall", id: `c${i}`, name: "t", arguments: {} })),
        api: "x",
        provider: "x",
        model: "x",
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "toolUse",
        timestamp: 9,
      } as AgentMessage,
    ];
    expect(memory.progress(withCalls(9))).toMatchObject({ toolCalls: 9, naturalBreak: false });
    expect(memory.refreshAfterTurn(withCalls(9))).toBe(false);
    expect(memory.refreshAfterTurn(withCalls(10))).toBe(true);
    // One at a time.
    expect(memory.refreshAfterTurn(withCalls(12))).toBe(false);
  });
});
