import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  AgentBusyError,
  type AgentEvent,
  type AgentMessage,
  DEFAULT_SUMMARY_PROMPT,
  type HookEvent,
  RESTORED_FILES_HEADING,
} from "../src/index.js";
import { assistantText, fakeModel, type Script, scriptedStreamFn, userMessage } from "../src/testing/index.js";

const big = (tokens: number): string => "x".repeat(tokens * 4);

/** Ten long exchanges: plenty to summarise while keeping 1 500 tokens verbatim. */
function history(): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = 0; i < 10; i++) messages.push(userMessage(`${i} ${big(500)}`), assistantText(big(400)));
  return messages;
}

function agentWith(script: Script, seen: HookEvent[]) {
  const streamFn = scriptedStreamFn(script);
  const agent = new Agent({
    model: fakeModel(),
    streamFn,
    messages: history(),
    run: { sessionId: "s1" },
    hooks: { pre_compact: [(event) => void seen.push(event)] },
    context: {
      compaction: { keepRecentTokens: 1_500 },
      restoration: { recentFiles: () => [{ path: "notes.md", content: "remember the milk", toolCallId: "gone" }] },
    },
  });
  return { agent, streamFn };
}

describe("Agent.compact: a manual compaction through the loop's own entry", () => {
  it("runs pre_compact hooks, summarises, re-attaches recent files and emits the loop's events", async () => {
    const seen: HookEvent[] = [];
    const { agent, streamFn } = agentWith(["the gist"], seen);
    const events: AgentEvent["type"][] = [];
    agent.subscribe((event) => void events.push(event.type));

    const outcome = await agent.compact();

    expect(outcome.ok).toBe(true);
    expect(seen).toEqual([expect.objectContaining({ event: "pre_compact", sessionId: "s1", messageCount: 20 })]);
    expect(streamFn.calls.map((call) => call.context.systemPrompt)).toEqual([DEFAULT_SUMMARY_PROMPT]);
    expect(events).toEqual(["compaction_start", "compaction"]);
    const first = JSON.stringify(agent.state.messages[0]);
    expect(first).toContain("the gist");
    expect(first).toContain(RESTORED_FILES_HEADING);
    expect(agent.state.messages.length).toBeLessThan(20);
    expect(agent.state.isRunning).toBe(false);
  });

  it("stops at abort: the transcript stays as it was, and the Agent takes the next run", async () => {
    const seen: HookEvent[] = [];
    const { agent, streamFn } = agentWith([{ fault: "hang" }, "answer"], seen);
    const before = agent.state.messages.slice();
    const events: AgentEvent["type"][] = [];
    agent.subscribe((event) => void events.push(event.type));
    const controller = new AbortController();

    const compacting = agent.compact({ signal: controller.signal });
    expect(agent.state.isRunning).toBe(true);
    expect(() => agent.prompt("meanwhile")).toThrow(AgentBusyError);
    await vi.waitFor(() => expect(streamFn.calls).toHaveLength(1));
    controller.abort("stopped by the user");
    const outcome = await compacting;

    expect(outcome).toMatchObject({ ok: false, reason: "aborted" });
    expect(agent.state.messages).toEqual(before);
    expect(events).toEqual(["compaction_start", "compaction_failed"]);
    const result = await agent.prompt("still there?");
    expect(result.reason).toBe("completed");
  });

  it("says there is nothing to do on a short transcript, without calling the model or the hooks", async () => {
    const seen: HookEvent[] = [];
    const streamFn = scriptedStreamFn(["unused"]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      messages: [userMessage("hi"), assistantText("hello")],
      hooks: { pre_compact: [(event) => void seen.push(event)] },
    });
    const events: AgentEvent["type"][] = [];
    agent.subscribe((event) => void events.push(event.type));
    const outcome = await agent.compact();
    expect(outcome).toMatchObject({ ok: false, reason: "nothing" });
    expect(streamFn.calls).toHaveLength(0);
    expect(seen).toEqual([]);
    expect(events).toEqual([]);
  });
});
