import type { StreamFn } from "@chorus/core";
import { scriptedStreamFn } from "@chorus/core/testing";
import type { TurnCommit } from "@chorus/store";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";

describe("what the store holds around a turn (the crash-safety hooks)", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("stores the user's message before the model is called; the run is written with the turn's first commit", async () => {
    const store = new MemorySessionStore();
    const seen: Promise<[string, string[]]>[] = [];
    const scripted = scriptedStreamFn(["hi"]);
    const streamFn: StreamFn = (model, context, options) => {
      seen.push(
        Promise.all([store.readTranscript(KEY), store.listRuns()]).then(([transcript, runs]) => [
          JSON.stringify(transcript.map((entry) => entry.message)),
          runs.map((run) => run.status),
        ]),
      );
      return scripted(model, context, options);
    };
    h = await startHarness({ store, gateway: { streamFn } });
    await h.send({ text: "remember me" });
    const [transcript, statuses] = await seen[0]!;
    expect(transcript).toContain("remember me");
    // No round trip of its own for the run: it is live (in /agents) from the start and in the store from its commit.
    expect(statuses).toEqual([]);
    expect((await store.listRuns()).map((run) => run.status)).toEqual(["completed"]);
  });

  it("writes the last turn's messages, the run's end and the reply's outbox entry in one commit, then sends it", async () => {
    const store = new MemorySessionStore();
    const commits: TurnCommit[] = [];
    const commitTurn = store.commitTurn.bind(store);
    store.commitTurn = (turn) => {
      commits.push(turn);
      return commitTurn(turn);
    };
    h = await startHarness({ store, script: [{ toolCalls: [{ name: "nope" }] }, "final answer"] });
    await h.send({ text: "go" });
    expect(commits).toHaveLength(3);
    // First turn: the tool call, stored before the tool runs; then its result; no reply text, the run goes on.
    expect(commits[0]!.messages.map((m) => m.role)).toEqual(["assistant"]);
    expect(commits[1]!.messages.map((m) => m.role)).toEqual(["toolResult"]);
    // The first commit writes the run (running); later ones leave it alone until the last.
    expect(commits[0]!.run?.start).toEqual({ agentId: "main" });
    expect(commits[0]!.run?.patch).toBeUndefined();
    expect(commits[1]!.run).toBeUndefined();
    // Last turn: its message, the run's end and the reply, together.
    const last = commits[2]!;
    expect(last.messages.map((m) => m.role)).toEqual(["assistant"]);
    expect(last.run?.patch?.status).toBe("completed");
    expect(last.outbox?.map((entry) => entry.kind)).toEqual(["reply"]);
    const [entry] = await store.listOutbox();
    expect(entry?.status).toBe("sent");
    expect(entry?.platformMessageIds).toEqual([h.channel.succeeded("send")[0]!.messageId]);
    // The user's message was not written twice.
    const roles = (await store.readTranscript(KEY)).map((e) => e.message.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });

  it("delivers outbox entries left pending by a previous process when it starts", async () => {
    const store = new MemorySessionStore();
    await store.ensureSession({ key: KEY, agentId: "main", channel: "test", accountId: "main", chatId: "dm-user-1" });
    await store.enqueueOutbox([
      {
        sessionKey: KEY,
        kind: "reply",
        payload: {
          channel: "test",
          accountId: "main",
          target: { chatType: "dm", chatId: "dm-user-1" },
          text: "from before",
        },
      },
    ]);
    h = await startHarness({ store });
    await h.gateway.idle();
    expect(h.channel.transcript("dm-user-1")).toEqual(["from before"]);
  });

  it("marks runs a previous process left running as interrupted and tells their chat", async () => {
    const store = new MemorySessionStore();
    await store.ensureSession({ key: KEY, agentId: "main", channel: "test", accountId: "main", chatId: "dm-user-1" });
    await store.startRun({ id: "run-old", sessionKey: KEY, agentId: "main" });
    h = await startHarness({ store });
    await h.gateway.idle();
    expect((await store.getRun("run-old"))?.status).toBe("interrupted");
    expect(h.channel.transcript("dm-user-1")).toEqual([
      "I was restarted while working on this — reply 'continue' to pick up.",
    ]);
  });

  it("drops an idle session's Agent from memory and rebuilds it from the store", async () => {
    vi.useFakeTimers();
    h = await startHarness({ script: ["one", "two"], gateway: { idleEvictMs: 30_000 } });
    await h.send({ text: "first" });
    expect(h.gateway.hasAgentInMemory(KEY)).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.gateway.hasAgentInMemory(KEY)).toBe(false);
    expect(h.gateway.activeSessionCount).toBe(0);
    await h.send({ text: "second" });
    expect(JSON.stringify(h.streamFn.calls[1]!.context.messages)).toContain("first");
    // Or at once, on demand.
    expect(h.gateway.evictIdleSessions()).toBe(1);
    expect(h.gateway.hasAgentInMemory(KEY)).toBe(false);
  });
});
