import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  type AgentMessage,
  type AssistantMessage,
  agentLoop,
  CLEARED_RESULT_TEXT,
  evictionScores,
  finishCompaction,
  microCompact,
  SUBGOAL_PROMPT,
  SUMMARY_PREFIX,
  SubgoalRegistry,
  SubgoalTracker,
  stripOrphanedToolResults,
} from "../src/index.js";
import {
  assistantText,
  assistantToolCalls,
  fakeModel,
  scriptedStreamFn,
  toolResult,
  userMessage,
} from "../src/testing/index.js";
import { collect, echoTool, ofType, textOf } from "./support/test-tools.js";

const big = (n: number): string => "x".repeat(n * 4);
const role = (m: AgentMessage | undefined): string => (m as { role: string }).role;

function reply(text: string): AssistantMessage {
  return { ...assistantText(text), stopReason: "stop" } as AssistantMessage;
}

/** A transcript of `count` rounds: a user message, a tool call and its result. */
function rounds(count: number, resultTokens: number): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = 0; i < count; i++) {
    messages.push(
      userMessage(`step ${i}`),
      assistantToolCalls([{ name: "read", id: `c${i}` }]),
      toolResult(`c${i}`, "read", `${i} ${big(resultTokens)}`),
    );
  }
  return messages;
}

describe("orphaned tool_result strip (seed 002: after every hard compaction)", () => {
  it("removes results whose call is gone and keeps answered ones", () => {
    const messages = rounds(2, 1);
    const orphan = toolResult("gone", "read", "lost");
    const out = stripOrphanedToolResults([orphan, ...messages]);
    expect(out).toEqual(messages);
    expect(stripOrphanedToolResults(messages)).toBe(messages);
  });

  it("runs after the post-compaction steps, so a step that inserts an orphan never reaches the provider", async () => {
    const model = fakeModel({ contextWindow: 10_000 });
    const history: AgentMessage[] = [];
    for (let i = 0; i < 10; i++) history.push(userMessage(big(500)), assistantText(big(400)));
    const streamFn = scriptedStreamFn((ctx) => (ctx.systemPrompt?.startsWith("You are compacting") ? "gist" : "ok"));
    const orphanStep = ({ after }: { after: AgentMessage[] }) => [
      after[0] as AgentMessage,
      toolResult("no-such-call", "read", "orphan"),
      ...after.slice(1),
    ];
    const events = await collect(
      agentLoop(
        [userMessage("now")],
        { messages: history },
        {
          model,
          streamFn,
          context: {
            reserve: 2_000,
            blockingReserve: 500,
            compaction: { keepRecentTokens: 1_500, afterCompaction: [orphanStep] },
          },
        },
      ),
    );
    expect(ofType(events, "compaction")[0]?.messages.some((m) => role(m) === "toolResult")).toBe(false);
    expect(streamFn.calls[1]?.context.messages.some((m) => m.role === "toolResult")).toBe(false);
  });

  it("keeps the compaction when a step throws", () => {
    const after = [userMessage("summary")];
    const out = finishCompaction([], after, [
      () => {
        throw new Error("broken step");
      },
    ]);
    expect(out).toEqual(after);
  });
});

describe("SubgoalRegistry (seed 002)", () => {
  it("puts messages in three tiers: active, completed, outdated", () => {
    const registry = new SubgoalRegistry();
    registry.start("read the config", 2, 5);
    registry.start("fix the parser", 5, 8);
    expect([0, 1].map((i) => registry.tierOf(i))).toEqual(["outdated", "outdated"]);
    expect([2, 4].map((i) => registry.tierOf(i))).toEqual(["completed", "completed"]);
    expect([5, 7].map((i) => registry.tierOf(i))).toEqual(["active", "active"]);
    expect(registry.activeSubgoal()?.description).toBe("fix the parser");
    expect(registry.tierOf(9)).toBe("active"); // this turn's messages, not yet extended over, are the active one's
    registry.extendActive(10);
    registry.completeActive(10);
    expect(registry.activeSubgoal()).toBeUndefined();
    expect(registry.tierOf(9)).toBe("completed");
  });

  it("repairs spans after a compaction by offsets: drained spans go, the active one moves after the summary", () => {
    const registry = new SubgoalRegistry();
    registry.start("old", 0, 4);
    registry.start("current", 4, 12);
    // Drain [0, 8) into one summary; the active part of the drain ([4, 8)) is re-inserted after it.
    registry.rebuildAfterCompaction({ cut: 8, head: 1, reinserted: 4 });
    expect(registry.subgoals.map((s) => [s.description, s.start, s.end])).toEqual([["current", 1, 9]]);
  });
});

describe("SubgoalRegistry snapshots", () => {
  it("round-trips through plain data and ignores malformed data", () => {
    const registry = new SubgoalRegistry();
    registry.start("first", 0, 2);
    registry.start("second", 2, 4);
    const copy = new SubgoalRegistry();
    copy.restore(JSON.parse(JSON.stringify(registry.snapshot())));
    expect(copy.snapshot()).toEqual(registry.snapshot());
    expect(copy.start("third", 4, 6).id).toBe(3);
    copy.restore({ subgoals: [{ description: 1 }], nextId: 2 });
    expect(copy.subgoals).toEqual([]);
  });

  it("a tracker starts afresh when the transcript is shorter than its spans (a new conversation)", async () => {
    const tracker = new SubgoalTracker({ strategy: "subgoal", complete: async () => reply("NONE") });
    tracker.registry.start("old conversation", 0, 10);
    tracker.refreshAfterTurn([userMessage("hi"), assistantText("hello")]);
    await tracker.settled();
    expect(tracker.activeSubgoal).toBeUndefined();
  });
});

describe("eviction scores (seed 002 tiers and subgoal_mig)", () => {
  const messages = rounds(3, 5);
  const registry = new SubgoalRegistry();
  registry.start("first", 3, 6);
  registry.start("second", 6, 9);

  it("scores by tier: outdated 0.1, completed 0.3, active 1.0", () => {
    const scores = evictionScores(messages, registry, "subgoal");
    expect([scores[2], scores[5], scores[8]]).toEqual([0.1, 0.3, 1.0]);
  });

  it("with subgoal_mig, redundant outputs lose score but active ones never do", () => {
    const same = [
      userMessage("a"),
      toolResult("x", "read", "alpha beta gamma"),
      toolResult("y", "read", "alpha beta gamma"),
    ];
    const r = new SubgoalRegistry();
    r.start("done", 0, 2);
    r.completeActive(2);
    r.start("now", 2, 3);
    const scores = evictionScores(same, r, "subgoal_mig");
    expect(scores[2]).toBe(1.0);
    expect(scores[1]).toBeCloseTo(0.3 - 1);
  });
});

describe("subgoal_mig clears redundant stale outputs", () => {
  function transcript(): AgentMessage[] {
    const repeated = "alpha beta gamma delta ".repeat(50);
    const texts = [repeated, "unique words here ".repeat(50), repeated, "r3", "r4", "r5"];
    return texts.flatMap((text, i) => [
      userMessage(`step ${i}`),
      assistantToolCalls([{ name: "read", id: `c${i}` }]),
      toolResult(`c${i}`, "read", text),
    ]);
  }

  it("even below the saving threshold, an old completed output repeated by an active one goes; unique ones stay", () => {
    const messages = transcript();
    const registry = new SubgoalRegistry();
    registry.start("first pass", 0, 6);
    registry.start("second pass", 6, messages.length);
    const mig = microCompact(messages, { scores: (m) => evictionScores(m, registry, "subgoal_mig") });
    const results = (mig?.messages ?? []).filter((m) => role(m) === "toolResult").map(textOf);
    expect(results.map((t) => t.slice(0, 6))).toEqual([
      CLEARED_RESULT_TEXT.slice(0, 6),
      "unique",
      "alpha ",
      "r3",
      "r4",
      "r5",
    ]);
    expect(mig?.saved).toBeGreaterThan(0);
    expect(microCompact(messages, { scores: (m) => evictionScores(m, registry, "subgoal") })).toBeUndefined();
  });
});

describe("NEVER evict active-tier messages", () => {
  it("micro-compaction leaves active-subgoal tool results whole", () => {
    const messages = rounds(7, 15_000);
    const registry = new SubgoalRegistry();
    registry.start("look at the first files", 0, 6);
    registry.start("work on the rest", 6, messages.length); // completes the first
    const out = microCompact(messages, { scores: (m) => evictionScores(m, registry, "subgoal") });
    const results = (out?.messages ?? []).filter((m) => role(m) === "toolResult").map(textOf);
    // Results 0–1 (completed subgoal) are cleared; 2–3 are old enough but active, so whole; 4–6 are recent.
    expect(results.slice(0, 2)).toEqual([CLEARED_RESULT_TEXT, CLEARED_RESULT_TEXT]);
    expect(results.slice(2).every((t) => t.length > 60_000)).toBe(true);
  });

  it("the loop's micro-compaction sends the active subgoal's old tool results whole", async () => {
    const history = rounds(7, 15_000);
    const tracker = new SubgoalTracker({ strategy: "subgoal_mig", complete: async () => reply("unused") });
    tracker.registry.start("read the first two files", 0, 6);
    tracker.registry.start("read the rest", 6, history.length);
    const streamFn = scriptedStreamFn(["ok"]);
    await collect(
      agentLoop(
        [userMessage("next")],
        { messages: history },
        { model: fakeModel(), streamFn, context: tracker.applyTo() },
      ),
    );
    const sent = (streamFn.calls[0]?.context.messages ?? []).filter((m) => m.role === "toolResult").map(textOf);
    expect(sent.slice(0, 2)).toEqual([CLEARED_RESULT_TEXT, CLEARED_RESULT_TEXT]);
    expect(sent.slice(2).every((t) => t.length > 60_000)).toBe(true);
  });

  it("the loop's hard compaction re-inserts the active subgoal's messages right after the summary", async () => {
    const model = fakeModel({ contextWindow: 10_000 });
    const history = rounds(8, 1_000);
    const tracker = new SubgoalTracker({ strategy: "subgoal", complete: async () => reply("unused") });
    tracker.registry.start("inspect step 5", 15, history.length);
    const streamFn = scriptedStreamFn((ctx) => (ctx.systemPrompt?.startsWith("You are compacting") ? "gist" : "ok"));
    const events = await collect(
      agentLoop(
        [userMessage(big(1_000))],
        { messages: history },
        {
          model,
          streamFn,
          context: tracker.applyTo({
            reserve: 2_000,
            blockingReserve: 500,
            microCompaction: { enabled: false },
            compaction: { keepRecentTokens: 1_200 },
          }),
        },
      ),
    );
    const compacted = ofType(events, "compaction")[0]?.messages ?? [];
    expect(textOf(compacted[0])).toBe(`${SUMMARY_PREFIX}gist`);
    // Every message of the active subgoal (from "step 5" on) is there verbatim, in order, after the summary.
    const active = history.slice(15);
    const at = compacted.indexOf(active[0] as AgentMessage);
    expect(at).toBe(1);
    expect(compacted.slice(1, 1 + active.length)).toEqual(active);
    expect(tracker.registry.activeSubgoal()?.start).toBe(1);
    expect(tracker.registry.tierOf(1)).toBe("active");
    const sent = streamFn.calls[1]?.context.messages ?? [];
    expect(sent.slice(1, 1 + active.length).map(textOf)).toEqual(active.map(textOf));
  });
});

describe("re-insertion is bounded", () => {
  it("brings back only the newest active messages within maxReinsertTokens, never starting at a tool result", () => {
    const before = rounds(6, 1_000); // each round ~1 000 tokens
    const tail = before.slice(15);
    const after = [userMessage("summary"), ...tail];
    const tracker = new SubgoalTracker({
      strategy: "subgoal",
      maxReinsertTokens: 2_100,
      complete: async () => reply("x"),
    });
    tracker.registry.start("everything", 0, before.length);
    const out = finishCompaction(before, after, [tracker.compactionStep]);
    // Rounds 3 and 4 (the newest drained ones, ~2 020 tokens) come back; rounds 0–2 are only in the summary.
    expect(out.slice(1, 7)).toEqual(before.slice(9, 15));
    expect(out).toHaveLength(1 + 6 + tail.length);
    expect(tracker.registry.activeSubgoal()?.start).toBe(1);
  });
});

describe("subgoal extraction (fire-and-forget, between turns only)", () => {
  it("NEVER runs in the tool loop: a run with tool rounds makes no extraction call", async () => {
    let extractions = 0;
    const tracker = new SubgoalTracker({
      strategy: "subgoal",
      complete: async () => {
        extractions++;
        return reply("read files");
      },
    });
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "echo", args: { text: "a" } }] },
      { toolCalls: [{ name: "echo", args: { text: "b" } }] },
      "done",
    ]);
    const agent = new Agent({ model: fakeModel(), streamFn, tools: [echoTool], context: tracker.applyTo() });
    await agent.prompt("go");
    expect(extractions).toBe(0);
    expect(streamFn.calls.every((c) => c.context.systemPrompt !== SUBGOAL_PROMPT)).toBe(true);
    tracker.refreshAfterTurn(agent.state.messages);
    await tracker.settled();
    expect(extractions).toBe(1);
    expect(tracker.activeSubgoal).toBe("read files");
  });

  it("NEVER blocks a turn: an extraction that never answers leaves the next turns unaffected", async () => {
    let calls = 0;
    const tracker = new SubgoalTracker({
      strategy: "subgoal",
      complete: () => {
        calls++;
        return new Promise<AssistantMessage>(() => {});
      },
    });
    const agent = new Agent({ model: fakeModel(), streamFn: scriptedStreamFn(["one", "two", "three"]) });
    await agent.prompt("first");
    tracker.refreshAfterTurn(agent.state.messages);
    const second = await agent.prompt("second");
    tracker.refreshAfterTurn(agent.state.messages);
    const third = await agent.prompt("third");
    expect([textOf(second.messages.at(-1)), textOf(third.messages.at(-1))]).toEqual(["two", "three"]);
    expect(calls).toBe(1); // one extraction at a time; the hung one is not stacked on
    expect(tracker.activeSubgoal).toBeUndefined();
  });

  it("gives a hung extraction up after its time limit, so tracking goes on", async () => {
    vi.useFakeTimers();
    try {
      const answers = [new Promise<AssistantMessage>(() => {}), Promise.resolve(reply("next subgoal"))];
      const tracker = new SubgoalTracker({
        strategy: "subgoal",
        timeoutMs: 1_000,
        complete: () => answers.shift() as Promise<AssistantMessage>,
      });
      const transcript = [userMessage("a"), assistantText("b")];
      tracker.refreshAfterTurn(transcript);
      await vi.advanceTimersByTimeAsync(1_000);
      await tracker.settled();
      tracker.refreshAfterTurn(transcript);
      await tracker.settled();
      expect(tracker.activeSubgoal).toBe("next subgoal");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failing extraction is ignored; COMPLETED closes the active subgoal and a new line opens the next", async () => {
    const replies = [
      reply("parse the log"),
      { ...reply(""), stopReason: "error" } as AssistantMessage,
      reply("COMPLETED: parse the log\nwrite the report"),
    ];
    const tracker = new SubgoalTracker({
      strategy: "subgoal",
      complete: async () => replies.shift() as AssistantMessage,
    });
    const transcript: AgentMessage[] = [userMessage("parse the log"), assistantText("parsed")];
    tracker.refreshAfterTurn(transcript);
    await tracker.settled();
    transcript.push(userMessage("and?"), assistantText("still parsing"));
    tracker.refreshAfterTurn(transcript);
    await tracker.settled();
    expect(tracker.activeSubgoal).toBe("parse the log");
    transcript.push(userMessage("now the report"), assistantText("writing"));
    tracker.refreshAfterTurn(transcript);
    await tracker.settled();
    expect(tracker.registry.subgoals.map((s) => [s.description, s.state, s.start, s.end])).toEqual([
      ["parse the log", "completed", 0, 4],
      ["write the report", "active", 4, 6],
    ]);
  });

  it("drops a reading that arrives after a compaction moved the transcript", async () => {
    let answer: (m: AssistantMessage) => void = () => {};
    const pending = new Promise<AssistantMessage>((resolve) => (answer = resolve));
    const tracker = new SubgoalTracker({ strategy: "subgoal", complete: () => pending });
    const transcript = [userMessage("a"), assistantText("b")];
    tracker.refreshAfterTurn(transcript);
    finishCompaction(transcript, [userMessage("summary")], [tracker.compactionStep]);
    answer(reply("stale subgoal"));
    await tracker.settled();
    expect(tracker.activeSubgoal).toBeUndefined();
  });
});

describe("compaction progress events", () => {
  it("emits compaction_start before the summary call and compaction_failed when it fails", async () => {
    const model = fakeModel({ contextWindow: 10_000 });
    const history: AgentMessage[] = [];
    for (let i = 0; i < 10; i++) history.push(userMessage(big(500)), assistantText(big(400)));
    const streamFn = scriptedStreamFn((ctx) =>
      ctx.systemPrompt?.startsWith("You are compacting")
        ? { fault: "error", error: { kind: "invalid_request", message: "summariser down" } }
        : "ok",
    );
    const events = await collect(
      agentLoop(
        [userMessage("now")],
        { messages: history },
        { model, streamFn, context: { reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } } },
      ),
    );
    const kinds = events.map((e) => e.type).filter((t) => t.startsWith("compaction"));
    expect(kinds).toEqual(["compaction_start", "compaction_failed"]);
    expect(ofType(events, "compaction_start")[0]?.tokensBefore).toBeGreaterThan(8_000);
  });
});
