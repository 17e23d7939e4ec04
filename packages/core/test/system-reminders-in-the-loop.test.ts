import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  type AgentEvent,
  approvalOutcomesReminder,
  changedFilesReminder,
  isSystemReminder,
  type Message,
  type PreDispatchPolicy,
  pendingTodosReminder,
  type ReminderSource,
  timePassedReminder,
} from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";
import { echoTool, ofType } from "./support/test-tools.js";

function textBlocks(message: Message | undefined): string[] {
  if (message?.role !== "user") return [];
  if (typeof message.content === "string") return [message.content];
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : []));
}

function serialized(messages: readonly Message[]): string[] {
  return messages.map((m) => JSON.stringify(m));
}

describe("system reminders (seed 004)", () => {
  it("are off by default: requests carry only the conversation", async () => {
    const streamFn = scriptedStreamFn(["hi"]);
    const agent = new Agent({ model: fakeModel(), streamFn });
    await agent.prompt("hello");
    expect(streamFn.calls[0]?.context.messages).toHaveLength(1);
  });

  it("attach before the model call as a <system-reminder> user message after the prompt", async () => {
    const streamFn = scriptedStreamFn(["noted"]);
    const todos = pendingTodosReminder(() => ["write the tests"]);
    const agent = new Agent({ model: fakeModel(), streamFn, reminders: { sources: [todos] } });
    await agent.prompt("hello");
    const sent = streamFn.calls[0]?.context.messages ?? [];
    expect(sent).toHaveLength(2);
    expect(textBlocks(sent[0])).toEqual(["hello"]);
    expect(textBlocks(sent[1])).toEqual([
      "<system-reminder>\nYour todo list still has open items:\n- write the tests\n</system-reminder>",
    ]);
    expect(isSystemReminder(agent.state.messages[1])).toBe(true);
  });

  it("never change or move an earlier message: each request starts with the previous one byte for byte", async () => {
    let tick = 0;
    const everyTurn: ReminderSource = ({ turn }) => [{ kind: "tick", text: `turn ${turn} (${tick++})` }];
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "echo", args: { text: "a" } }] },
      { toolCalls: [{ name: "echo", args: { text: "b" } }] },
      "first done",
      { toolCalls: [{ name: "echo", args: { text: "c" } }] },
      "second done",
    ]);
    const agent = new Agent({ model: fakeModel(), streamFn, tools: [echoTool], reminders: { sources: [everyTurn] } });
    await agent.prompt("one");
    await agent.prompt("two");
    expect(streamFn.calls).toHaveLength(5);
    for (let i = 1; i < streamFn.calls.length; i++) {
      const before = serialized(streamFn.calls[i - 1]?.context.messages ?? []);
      const now = serialized(streamFn.calls[i]?.context.messages ?? []);
      expect(now.slice(0, before.length)).toEqual(before);
      expect(now.length).toBeGreaterThan(before.length);
    }
    expect(textBlocks(streamFn.calls[4]?.context.messages.at(-1))).toEqual([
      "<system-reminder>\nturn 2 (4)\n</system-reminder>",
    ]);
  });

  it("report an approval's outcome to the model on the next call", async () => {
    const ask: PreDispatchPolicy = () => ({ kind: "ask", reason: "needs approval", timeoutMs: 60_000 });
    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, "ok"]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [echoTool],
      preDispatchPolicies: [ask],
      reminders: { sources: [approvalOutcomesReminder()] },
    });
    const run = agent.prompt("go");
    await vi.waitFor(() => expect(agent.pendingApprovals()).toHaveLength(1));
    agent.deny(agent.pendingApprovals()[0] as string, "not now");
    await run;
    const last = streamFn.calls[1]?.context.messages.at(-1);
    expect(textBlocks(last)[0]).toMatch(/^<system-reminder>\nThe user denied the echo call .+: not now/);
    expect(streamFn.calls[0]?.context.messages).toHaveLength(1);
  });

  it("name files that changed since the last look, and say nothing the first time", async () => {
    const versions = new Map([["/w/a.ts", 1]]);
    const source = changedFilesReminder(
      () => ["/w/a.ts"],
      async (path) => versions.get(path),
    );
    const streamFn = scriptedStreamFn(["one", "two"]);
    const agent = new Agent({ model: fakeModel(), streamFn, reminders: { sources: [source] } });
    await agent.prompt("first");
    versions.set("/w/a.ts", 2);
    await agent.prompt("second");
    expect(streamFn.calls[0]?.context.messages).toHaveLength(1);
    expect(textBlocks(streamFn.calls[1]?.context.messages.at(-1))[0]).toContain("- /w/a.ts");
  });

  it("say how long the pause before a prompt was", async () => {
    const streamFn = scriptedStreamFn(["later"]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      reminders: { sources: [timePassedReminder({ afterMs: 60_000 })] },
    });
    const hourAgo = Date.now() - 3_600_000;
    agent.replaceMessages([
      { role: "user", content: "earlier", timestamp: hourAgo - 1000 },
      { role: "user", content: "and this", timestamp: hourAgo },
    ]);
    await agent.prompt("back");
    expect(textBlocks(streamFn.calls[0]?.context.messages.at(-1))[0]).toContain("60 minutes passed");
  });

  it("skip a failing or late source without holding up the call past the timeout", async () => {
    const failing: ReminderSource = () => {
      throw new Error("boom");
    };
    const late: ReminderSource = () => new Promise(() => {});
    const fine: ReminderSource = () => [{ kind: "ok", text: "still here" }];
    const streamFn = scriptedStreamFn(["fine"]);
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      reminders: { sources: [failing, late, fine], timeoutMs: 20 },
    });
    agent.subscribe((e) => events.push(e));
    await agent.prompt("go");
    expect(textBlocks(streamFn.calls[0]?.context.messages.at(-1))).toEqual([
      "<system-reminder>\nstill here\n</system-reminder>",
    ]);
    expect(ofType(events, "agent_end")[0]?.reason).toBe("completed");
  });
});
