import { DEFAULT_SUMMARY_PROMPT, estimateTokens } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GatewayConfigInput } from "../src/config/index.js";
import { BASE_CONFIG, type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { LONG_MESSAGE, SMALL_WINDOW } from "./fixtures/small-context-window.js";

const KEY = "main:main:test:dm:user-1";
const long = LONG_MESSAGE; // ~3 000 tokens
const AT = Date.UTC(2025, 2, 4, 14, 2, 0);

function script(): (context: { systemPrompt?: string }) => ScriptedTurn {
  let turn = 0;
  return (context) => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "the gist" : `answer ${++turn}`);
}

/** Three long messages at 14:02 UTC: the third makes the loop compact. */
async function compactOnce(h: Harness): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await h.channel.inject({ text: long, messageId: `long-${i}` });
    await vi.advanceTimersByTimeAsync(3_000);
    await h.gateway.idle();
  }
}

async function status(h: Harness, messageId?: string): Promise<string> {
  await h.channel.inject({ text: "/status", ...(messageId === undefined ? {} : { messageId }) });
  await vi.advanceTimersByTimeAsync(100);
  await h.gateway.idle();
  return h.channel.transcript("dm-user-1").at(-1)!;
}

const n = (tokens: number): string => tokens.toLocaleString("en-US");

describe("/status shows the session's context (seed 002 compaction progress)", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("shows the tokens in use against the model's window and how full it is, with no compaction yet", async () => {
    vi.useFakeTimers({ now: AT });
    h = await startHarness({ script: ["noted"] });
    await h.send({ text: "y ".repeat(24_000) }); // ~12 000 tokens against fake-model's 200 000
    const used = estimateTokens((await h.store.readTranscript(KEY)).map((e) => e.message));
    const line = await status(h);
    expect(line).toContain(`**Context** ~${n(used)} / 200,000 tokens (${Math.floor((used / 200_000) * 100)}% full)`);
    expect(used).toBeGreaterThan(12_000);
    expect(line).toContain("(6% full)");
    expect(line).toContain("**Last compaction** no compaction yet");
    // Kept with the session: nothing is stored before a compaction or a /model switch.
    expect((await h.store.getSession(KEY))?.settings.lastCompaction).toBeUndefined();
  });

  it("after an automatic compaction shows its time and what it saved, and keeps both with the session", async () => {
    vi.useFakeTimers({ now: AT });
    h = await startHarness({ script: script(), gateway: SMALL_WINDOW });
    await compactOnce(h);
    const stored = (await h.store.getSession(KEY))?.settings;
    const last = stored?.lastCompaction as { before: number; after: number; atMs: number };
    expect(last.before).toBeGreaterThan(last.after);
    expect(new Date(last.atMs).toISOString()).toMatch(/^2025-03-04T14:02/);
    // The window the loop compacted against (the gateway's loop.context.window), not the model's 200 000.
    expect(stored?.contextMaxTokens).toBe(10_000);
    const line = await status(h);
    const saved = last.before - last.after;
    expect(line).toContain(
      `**Last compaction** 14:02 UTC, saved ${n(saved)} tokens (${n(last.before)} → ${n(last.after)})`,
    );
    expect(line).toMatch(/\*\*Context\*\* ~[\d,]+ \/ 10,000 tokens \(\d+% full\)/);
  });

  it("after a restart (a new Gateway on the same store) still shows the last compaction, with its date a day later", async () => {
    vi.useFakeTimers({ now: AT });
    const store = new MemorySessionStore();
    const first = await startHarness({ store, script: script(), gateway: SMALL_WINDOW });
    h = first;
    await compactOnce(first);
    const before = (await store.getSession(KEY))?.settings.lastCompaction as { before: number; after: number };
    await first.close();

    vi.setSystemTime(AT + 24 * 3_600_000);
    h = await startHarness({ store, script: script(), gateway: SMALL_WINDOW });
    const line = await status(h, "after-restart");
    expect(line).toContain(
      `**Last compaction** 2025-03-04 14:02 UTC, saved ${n(before.before - before.after)} tokens (${n(before.before)} → ${n(before.after)})`,
    );
  });

  it("after /new the new conversation has had no compaction", async () => {
    vi.useFakeTimers({ now: AT });
    h = await startHarness({ script: script(), gateway: SMALL_WINDOW });
    await compactOnce(h);
    expect(await status(h, "before-new")).toContain("saved");
    await h.channel.inject({ text: "/new", messageId: "new" });
    await vi.advanceTimersByTimeAsync(100);
    await h.gateway.idle();
    expect(await status(h, "after-new")).toContain("**Last compaction** no compaction yet");
    expect((await h.store.getSession(KEY))?.settings.lastCompaction).toBeUndefined();
  });

  it("/compact records its time and the window too", async () => {
    vi.useFakeTimers({ now: AT });
    h = await startHarness({ script: ["a", "b", "c", "Summary: they talked about x."] });
    for (const text of ["x ".repeat(12_000), "x ".repeat(12_000), "short"]) await h.send({ text });
    await h.send({ text: "/compact" });
    const [, before, after] = /~(\d+) → ~(\d+)/.exec(h.channel.transcript("dm-user-1").at(-1)!)!.map(Number);
    const line = await status(h);
    expect(line).toContain(
      `**Last compaction** 14:02 UTC, saved ${n(before! - after!)} tokens (${n(before!)} → ${n(after!)})`,
    );
    expect((await h.store.getSession(KEY))?.settings.contextMaxTokens).toBe(200_000);
  });

  it("a /model switch stores the new model's window with the session", async () => {
    const config: GatewayConfigInput = {
      ...BASE_CONFIG,
      agents: [{ id: "main", model: "fake-model", models: ["fake-model", "fake-large"] }],
    };
    h = await startHarness({ config, script: ["hi"] });
    await h.send({ text: "hello" });
    await h.send({ text: "/model fake-large" });
    expect((await h.store.getSession(KEY))?.settings.contextMaxTokens).toBe(200_000);
  });

  it("a guest in a group sees the group session's context like anyone the bot answers there, and no other chat's", async () => {
    const config: GatewayConfigInput = {
      agents: [{ id: "main", model: "fake-model" }],
      channels: [
        {
          channel: "test",
          admins: ["owner"],
          dmPolicy: "open",
          groups: { guests: { requireMention: false, trust: "guest" } },
        },
      ],
    };
    h = await startHarness({ config, script: () => "ok" });
    const guest = { chatType: "group" as const, chatId: "guests", sender: { id: "guest", name: "Guest" } };
    await h.send({ ...guest, text: "hello there" });
    await h.send({ text: "z ".repeat(24_000), sender: { id: "owner", name: "Owner" } }); // the owner's DM, much longer
    const group = (await h.store.listSessions({ agentId: "main" })).find((s) => s.chatId === "guests")!;
    const used = estimateTokens((await h.store.readTranscript(group.key)).map((e) => e.message));
    await h.send({ ...guest, text: "/status" });
    const asGuest = h.channel.transcript("guests").at(-1)!;
    expect(asGuest).toContain(`**Context** ~${n(used)} / 200,000 tokens (0% full)`);
    expect(asGuest).toContain("**Last compaction** no compaction yet");
    await h.send({ ...guest, text: "/status", sender: { id: "owner", name: "Owner" } });
    expect(h.channel.transcript("guests").at(-1)).toBe(asGuest);
  });
});
