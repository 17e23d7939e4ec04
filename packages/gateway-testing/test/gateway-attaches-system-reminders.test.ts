import { isSystemReminder, type StreamContext } from "@chorus/core";
import { scriptedStreamFn } from "@chorus/core/testing";
import { MemorySessionStore } from "@chorus/store";
import { createApprovalPolicy } from "@chorus/tools";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deployProbe, HARNESS_CONFIG, type Harness, startHarness } from "../src/index.js";

const KEY = "main:main:test:dm:user-1";

function lastText(messages: readonly unknown[]): string {
  const last = messages.at(-1) as { content: string | { type: string; text?: string }[] };
  return typeof last.content === "string" ? last.content : last.content.map((part) => part.text ?? "").join("\n");
}

describe("system reminders in a chat (agents[].reminders)", () => {
  let h: Harness;
  afterEach(async () => {
    if (vi.isFakeTimers()) await vi.runOnlyPendingTimersAsync();
    await h.close();
    vi.useRealTimers();
  });

  it("are off by default: the model sees only the chat", async () => {
    const streamFn = scriptedStreamFn(["one"]);
    h = await startHarness({ gateway: { streamFn } });
    await h.send({ text: "hello" });
    expect(lastText(streamFn.calls[0]?.context.messages ?? [])).toBe("hello");
  });

  it("tell the model how long the chat was quiet, and keep the reminder in the transcript", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new MemorySessionStore();
    const streamFn = scriptedStreamFn(["first", "second"]);
    h = await startHarness({
      store,
      gateway: { streamFn },
      config: {
        ...HARNESS_CONFIG,
        agents: [{ id: "main", model: "fake-model", reminders: { timePassedMinutes: 60 } }],
      },
    });
    await h.send({ text: "before lunch" });
    vi.setSystemTime(Date.now() + 3 * 3_600_000);
    await h.send({ text: "after lunch" });
    const second = streamFn.calls[1]?.context.messages ?? [];
    expect(lastText(second)).toMatch(/^<system-reminder>\n3 hours passed since the previous message/);
    // The first request is carried over unchanged: the reminder comes after the new prompt.
    const first = streamFn.calls[0]?.context.messages ?? [];
    expect(JSON.stringify(second.slice(0, first.length))).toBe(JSON.stringify(first));
    const stored = (await store.readTranscript(KEY)).map((entry) => entry.message);
    expect(stored.filter((m) => isSystemReminder(m))).toHaveLength(1);
  });

  it("tell the model what the user answered to an approval", async () => {
    vi.useFakeTimers();
    const probe = deployProbe();
    const seen: StreamContext[] = [];
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model", reminders: { approvalOutcomes: true } }],
        channels: [
          {
            channel: "test",
            dmPolicy: "allowlist",
            allowFrom: ["user-1"],
            admins: ["admin"],
            groups: { "group-1": { requireMention: false, trust: "trusted" } },
          },
        ],
      },
      channel: { capabilities: { buttons: false } },
      script: (context: StreamContext) => {
        seen.push({ ...context, messages: [...context.messages] });
        return context.messages.some((m) => m.role === "toolResult")
          ? "deployed"
          : { toolCalls: [{ name: "deploy", args: { target: "prod" } }] };
      },
      gateway: {
        agents: {
          main: {
            tools: [probe.tool],
            tiers: { trusted: { allow: ["*"] } },
            policies: [createApprovalPolicy({ require: ["deploy"], timeoutMs: 60_000 })],
          },
        },
      },
    });
    const inGroup = { chatType: "group", chatId: "group-1", sender: { id: "user-1" } } as const;
    await h.channel.inject({ text: "ship it", ...inGroup });
    await vi.advanceTimersByTimeAsync(20);
    const request = h.channel.transcript("group-1").at(-1) ?? "";
    const code = /`\/deny ([a-z0-9]+)`/.exec(request)?.[1] ?? /`\/approve ([a-z0-9]+)`/.exec(request)?.[1];
    await h.channel.inject({ text: `/deny ${code}`, ...inGroup });
    await vi.advanceTimersByTimeAsync(20);
    await h.gateway.idle();
    expect(probe.deployed).toEqual([]);
    expect(lastText(seen[1]?.messages ?? [])).toMatch(/^<system-reminder>\nThe user denied the deploy call /);
  });
});
