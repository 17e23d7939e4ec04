import type { ScriptedTurn } from "@chorus/core/testing";
import type { QueueMode } from "@chorus/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** The first model call takes 1 s; later ones answer at once with the last user text. */
function slowFirstCall(context: { messages: readonly unknown[] }, index: number): ScriptedTurn {
  if (index === 0) return { blocks: [{ type: "text", text: "first answer", delayMs: 1000 }] };
  return `answer to: ${lastUserText(context.messages)}`;
}

function lastUserText(messages: readonly unknown[]): string {
  const users = messages.filter((m) => (m as { role: string }).role === "user") as { content: unknown }[];
  const content = users.at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

function userTexts(messages: readonly unknown[]): string[] {
  return (messages as { role: string; content: unknown }[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

async function withMode(mode: QueueMode, extra: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  return startHarness({
    script: slowFirstCall,
    config: {
      agents: [{ id: "main", model: "fake-model" }],
      channels: [{ channel: "test", dmPolicy: "open", queueMode: mode }],
    },
    ...extra,
  });
}

describe("queue modes with messages arriving mid-run", () => {
  let h: Harness;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(async () => {
    await vi.runOnlyPendingTimersAsync();
    await h.close();
    vi.useRealTimers();
  });

  it("steer (the default) puts the new message into the running turn: one run, the model sees it next", async () => {
    h = await withMode("steer");
    await h.channel.inject({ text: "first" });
    await vi.advanceTimersByTimeAsync(500);
    await h.channel.inject({ text: "second" });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(2);
    expect(userTexts(h.streamFn.calls[1]!.context.messages)).toEqual(["first", "second"]);
    expect(await h.store.listRuns()).toHaveLength(1);
    expect(h.channel.transcript("dm-user-1")).toEqual(["first answer", "answer to: second"]);
  });

  it("followup runs each waiting message as its own turn, in order, after the current one", async () => {
    h = await withMode("followup");
    await h.channel.inject({ text: "first" });
    await vi.advanceTimersByTimeAsync(300);
    await h.channel.inject({ text: "second" });
    await h.channel.inject({ text: "third" });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(3);
    expect(await h.store.listRuns()).toHaveLength(3);
    expect(h.channel.transcript("dm-user-1")).toEqual(["first answer", "answer to: second", "answer to: third"]);
  });

  it("collect merges the messages that arrived meanwhile into one prompt after a debounce", async () => {
    h = await withMode("collect");
    await h.channel.inject({ text: "first" });
    await vi.advanceTimersByTimeAsync(500); // the first message's own debounce
    await vi.advanceTimersByTimeAsync(300);
    await h.channel.inject({ text: "second" });
    await vi.advanceTimersByTimeAsync(100);
    await h.channel.inject({ text: "third" });
    await vi.advanceTimersByTimeAsync(2000);
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(2);
    expect(userTexts(h.streamFn.calls[1]!.context.messages).slice(-2)).toEqual(["second", "third"]);
    expect(h.channel.transcript("dm-user-1")).toEqual(["first answer", "answer to: third"]);
  });

  it("interrupt aborts the running turn and starts on the new message", async () => {
    h = await withMode("interrupt");
    await h.channel.inject({ text: "first" });
    await vi.advanceTimersByTimeAsync(300);
    await h.channel.inject({ text: "never mind, do this" });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(2);
    const runs = await h.store.listRuns();
    expect(runs.map((run) => run.status)).toEqual(["aborted", "completed"]);
    expect(h.channel.transcript("dm-user-1")).toEqual(["answer to: never mind, do this"]);
  });

  it("keeps at most the queue cap waiting, drops the oldest and tells the sender", async () => {
    h = await withMode("followup", { gateway: { maxQueuedPerSession: 2 } });
    await h.channel.inject({ text: "first" });
    await vi.advanceTimersByTimeAsync(100);
    for (const text of ["q1", "q2", "q3"]) await h.channel.inject({ text });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    const chat = h.channel.transcript("dm-user-1");
    expect(chat.some((text) => text.includes("dropped the oldest"))).toBe(true);
    expect(chat.filter((text) => text.startsWith("answer to:"))).toEqual(["answer to: q2", "answer to: q3"]);
  });

  it("takes a group's own queue mode over the channel's", async () => {
    h = await startHarness({
      script: slowFirstCall,
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [
          { channel: "test", queueMode: "steer", groups: { g1: { requireMention: false, queueMode: "followup" } } },
        ],
      },
    });
    const inGroup = { chatType: "group" as const, chatId: "g1", sender: { id: "ann", name: "Ann" } };
    await h.channel.inject({ ...inGroup, text: "first" });
    await vi.advanceTimersByTimeAsync(300);
    await h.channel.inject({ ...inGroup, text: "second" });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(await h.store.listRuns()).toHaveLength(2);
  });

  it("lets /queue change the mode of one chat", async () => {
    h = await withMode("steer");
    await h.send({ text: "/queue followup" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("Queue mode set to followup.");
    expect((await h.store.getSession("main:main:test:dm:user-1"))?.queueModeOverride).toBe("followup");
    await h.channel.inject({ text: "first" });
    await vi.advanceTimersByTimeAsync(300);
    await h.channel.inject({ text: "second" });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(await h.store.listRuns()).toHaveLength(2);
  });
});
