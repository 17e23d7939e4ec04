import { describe, expect, it } from "vitest";
import { Agent, agentLoop, RESTORED_FILES_HEADING, SessionMemory, SUMMARY_PREFIX } from "../../src/index.js";
import { assistantToolCalls, fakeModel, scriptedStreamFn, toolResult, userMessage } from "../../src/testing/index.js";
import { collect, ofType, textOf } from "../support/test-tools.js";
import { big, chat, isSummaryCall, snapshotCovering } from "./session-memory-fixtures.js";

// Window 40 000, reserve 20 000: a 30-message chat of ~1 000 tokens each passes the threshold.
const model = fakeModel({ contextWindow: 40_000 });
const unusedStream = scriptedStreamFn(() => "unused");

function memoryFrom(snapshot: unknown, minSavingsTokens?: number): SessionMemory {
  const options = { model, streamFn: unusedStream, ...(minSavingsTokens === undefined ? {} : { minSavingsTokens }) };
  return new SessionMemory(options, snapshot);
}

async function run(history: ReturnType<typeof chat>, memory: SessionMemory) {
  const streamFn = scriptedStreamFn((ctx) => (isSummaryCall(ctx.systemPrompt) ? "the summariser's gist" : "answer"));
  const context = { compaction: { sessionMemory: memory, keepRecentTokens: 4_000 } };
  const events = await collect(agentLoop([userMessage("now")], { messages: history }, { model, streamFn, context }));
  return { events, streamFn };
}

describe("tier 1: the kept session-memory summary serves the compaction", () => {
  it("replaces the covered messages with the summary, with no model call, and keeps every later one verbatim", async () => {
    const history = chat(15, 1_000);
    const memory = memoryFrom(snapshotCovering(history, 19));
    const { events, streamFn } = await run(history, memory);

    expect(streamFn.calls).toHaveLength(1);
    const sent = streamFn.calls[0]?.context.messages ?? [];
    expect(textOf(sent[0])).toBe(`${SUMMARY_PREFIX}the kept summary`);
    expect(sent.slice(1, 11).map(textOf)).toEqual(history.slice(20).map(textOf));
    expect(textOf(sent.at(-1))).toBe("now");

    const applied = ofType(events, "session_memory_compact")[0];
    expect(applied?.savedTokens).toBeGreaterThanOrEqual(10_000);
    expect(applied?.summaryTokens).toBeGreaterThan(0);
    expect(applied?.summaryTokens).toBeLessThan(50);
    const compaction = ofType(events, "compaction")[0];
    expect(compaction).toMatchObject({ kind: "summary", tier: 1 });
    expect(compaction && compaction.tokensBefore - compaction.tokensAfter).toBe(applied?.savedTokens);
  });

  it("re-points the summary at its part of the new transcript, so the next compaction can fold it in", async () => {
    const history = chat(15, 1_000);
    const memory = memoryFrom(snapshotCovering(history, 19));
    const { events } = await run(history, memory);
    const compacted = ofType(events, "compaction")[0]?.messages ?? [];
    expect(memory.current()?.covered).toMatchObject({ index: 0, role: "user" });
    expect(memory.current()?.covered.timestamp).toBe((compacted[0] as { timestamp: number }).timestamp);
  });

  it("is followed by the same context restoration as tier 2 (the files read before the cut come back)", async () => {
    const history = chat(15, 1_000);
    const memory = memoryFrom(snapshotCovering(history, 19));
    const streamFn = scriptedStreamFn(() => "answer");
    const recentFiles = async () => [{ path: "a.ts", content: "export const a = 1;", toolCallId: "gone" }];
    const context = { compaction: { sessionMemory: memory }, restoration: { recentFiles } };
    const events = await collect(agentLoop([userMessage("now")], { messages: history }, { model, streamFn, context }));
    expect(ofType(events, "compaction")[0]).toMatchObject({ tier: 1 });
    const sent = JSON.stringify(streamFn.calls[0]?.context.messages);
    expect(sent).toContain(RESTORED_FILES_HEADING);
    expect(sent).toContain("export const a = 1;");
  });

  it("serves a manual compaction (agent.compact, a /compact) too", async () => {
    const history = chat(15, 1_000);
    const streamFn = scriptedStreamFn(() => "unused");
    const memory = memoryFrom(snapshotCovering(history, 25));
    const agent = new Agent({ model, streamFn, messages: history, context: { compaction: { sessionMemory: memory } } });
    const outcome = await agent.compact({ keepRecentTokens: 1_000 });
    expect(outcome).toMatchObject({ ok: true, tier: 1 });
    expect(streamFn.calls).toHaveLength(0);
    expect(agent.state.messages.map(textOf)).toEqual([
      `${SUMMARY_PREFIX}the kept summary`,
      ...history.slice(26).map(textOf),
    ]);
  });

  it("falls back to the summarising tier 2 when the saving is below the minimum", async () => {
    const history = chat(15, 1_000);
    const memory = memoryFrom(snapshotCovering(history, 19), 30_000);
    const { events, streamFn } = await run(history, memory);
    expect(streamFn.calls.filter((call) => isSummaryCall(call.context.systemPrompt))).toHaveLength(1);
    expect(ofType(events, "session_memory_compact")).toHaveLength(0);
    expect(ofType(events, "compaction")[0]).toMatchObject({ kind: "summary", tier: 2 });
    expect(textOf(streamFn.calls[1]?.context.messages[0])).toBe(`${SUMMARY_PREFIX}the summariser's gist`);
  });

  it("ignores a summary whose covered message is no longer where it was (the transcript moved)", async () => {
    const history = chat(15, 1_000);
    const stale = { ...snapshotCovering(history, 19), covered: { index: 19, role: "assistant", timestamp: 7 } };
    const { events, streamFn } = await run(history, memoryFrom(stale));
    expect(ofType(events, "session_memory_compact")).toHaveLength(0);
    expect(ofType(events, "compaction")[0]).toMatchObject({ tier: 2 });
    expect(streamFn.calls.some((call) => isSummaryCall(call.context.systemPrompt))).toBe(true);
  });

  it("never cuts between a tool call and its results: a summary ending at the call is not applied", async () => {
    const history = chat(10, 1_000);
    history.push({ ...assistantToolCalls([{ name: "read", id: "r1" }]), timestamp: 5_000 });
    history.push({ ...toolResult("r1", "read", big(1_000)), timestamp: 5_001 });
    history.push(...chat(5, 1_000).map((m, i) => ({ ...m, timestamp: 6_000 + i })));
    const { events } = await run(history, memoryFrom(snapshotCovering(history, 20)));
    expect(ofType(events, "session_memory_compact")).toHaveLength(0);
    expect(ofType(events, "compaction")[0]).toMatchObject({ tier: 2 });
  });
});
