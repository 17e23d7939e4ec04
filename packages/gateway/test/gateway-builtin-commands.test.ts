import { afterEach, describe, expect, it, vi } from "vitest";
import { parseCommand } from "../src/commands/parse-command.js";
import { BASE_CONFIG, type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("builtin commands", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("are answered before the agent sees them", async () => {
    h = await startHarness({ script: ["agent answer"] });
    await h.send({ text: "/help" });
    expect(h.streamFn.calls).toHaveLength(0);
    const help = h.channel.transcript("dm-user-1")[0]!;
    expect(help).toContain("/new");
    expect(help).not.toContain("/agents"); // admin-only commands are not listed for others
    await h.send({ text: "/help", sender: { id: "admin", name: "Admin" } });
    expect(h.channel.transcript("dm-admin")[0]).toContain("/agents");
  });

  it("fit their replies to the channel's limits", async () => {
    h = await startHarness({ channel: { capabilities: { maxMessageLength: 128, maxLines: 3 } } });
    await h.send({ text: "/help", sender: { id: "admin", name: "Admin" } });
    const messages = h.channel.transcript("dm-admin");
    expect(messages.length).toBeGreaterThan(3);
    for (const text of messages) {
      expect(text.length).toBeLessThanOrEqual(128);
      expect(text.split("\n").length).toBeLessThanOrEqual(3);
    }
    expect(messages.join("\n")).toContain("/agents");
  });

  it("/status shows agent, model, context, cost and queue", async () => {
    h = await startHarness({ script: [{ text: "hi", usage: { input: 1000, output: 500 } }] });
    await h.send({ text: "hello" });
    await h.send({ text: "/status" });
    const status = h.channel.transcript("dm-user-1").at(-1)!;
    expect(status).toContain("**Agent** main · **model** fake-model");
    expect(status).toMatch(/\*\*Context\*\* ~[\d,]+ \/ 200,000 tokens \(\d+% full\) · \*\*cost\*\* \$0\.0020/);
    expect(status).toContain("**Queue** steer · 0 waiting · idle");
  });

  it("/new starts the conversation afresh; the old messages stay in the store", async () => {
    h = await startHarness({ script: ["one", "two"] });
    await h.send({ text: "remember the word banana" });
    await h.send({ text: "/new" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("Started a new conversation.");
    await h.send({ text: "what word?" });
    expect(JSON.stringify(h.streamFn.calls[1]!.context.messages)).not.toContain("banana");
    const all = await h.store.readTranscript("main:main:test:dm:user-1", { fromSeq: 1 });
    expect(JSON.stringify(all)).toContain("banana");
  });

  it("/stop stops the running task", async () => {
    vi.useFakeTimers();
    h = await startHarness({ script: [{ blocks: [{ type: "text", text: "slow", delayMs: 10_000 }] }] });
    await h.channel.inject({ text: "take your time" });
    await vi.advanceTimersByTimeAsync(100);
    await h.channel.inject({ text: "/stop" });
    await vi.advanceTimersByTimeAsync(100);
    await h.gateway.idle();
    expect(h.channel.transcript("dm-user-1")).toEqual(["Stopped the current task."]);
    expect((await h.store.listRuns())[0]?.status).toBe("aborted");
  });

  it("/compact summarises older messages and reports before → after", async () => {
    const long = "x ".repeat(12_000);
    h = await startHarness({ script: ["a", "b", "c", "Summary: they talked about x."] });
    for (const text of [long, long, "short"]) await h.send({ text });
    await h.send({ text: "/compact" });
    const reply = h.channel.transcript("dm-user-1").at(-1)!;
    expect(reply).toMatch(/^Compacted the conversation: ~\d+ → ~\d+ tokens\.$/);
    const [, before, after] = /~(\d+) → ~(\d+)/.exec(reply)!.map(Number);
    expect(after!).toBeLessThan(before!);
    await h.send({ text: "/status" });
    const [status, n] = [h.channel.transcript("dm-user-1").at(-1)!, (t: number) => t.toLocaleString("en-US")];
    expect(status).toMatch(/\*\*Last compaction\*\* \d\d:\d\d UTC, saved /);
    expect(status).toContain(`saved ${n(before! - after!)} tokens (${n(before!)} → ${n(after!)})`);
  });

  it("parses names case-insensitively, with a bot suffix, and ignores paths", () => {
    expect(parseCommand("/Model@MyBot  fake-large ")).toEqual({ name: "model", args: ["fake-large"] });
    expect(parseCommand("/usr/bin/env")).toBeUndefined();
    expect(parseCommand("hello /help")).toBeUndefined();
  });

  it("answers an unknown command with the closest one and /help, without the agent", async () => {
    h = await startHarness({ script: ["agent answer"] });
    await h.send({ text: "/stauts" });
    await h.send({ text: "/frobnicate now" });
    expect(h.streamFn.calls).toHaveLength(0);
    expect(h.channel.transcript("dm-user-1")).toEqual([
      "There is no /stauts command. Did you mean /status? /help lists the commands you can use.",
      "There is no /frobnicate command. /help lists the commands you can use.",
    ]);
    // Admin-only commands are suggested to admins only.
    await h.send({ text: "/agnets" });
    expect(h.channel.transcript("dm-user-1").at(-1)).not.toContain("/agents");
    await h.send({ text: "/agnets", sender: { id: "admin", name: "Admin" } });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("Did you mean /agents?");
  });

  it("passes unknown commands to the agent with `unknownCommands: pass`, and /start always", async () => {
    h = await startHarness({
      config: { ...BASE_CONFIG, agents: [{ id: "main", model: "fake-model", unknownCommands: "pass" }] },
      script: ["I do not know /frobnicate"],
    });
    await h.send({ text: "/frobnicate now" });
    expect(h.streamFn.calls).toHaveLength(1);
    await h.close();
    h = await startHarness({ script: ["Hello, I am the bot."] });
    await h.send({ text: "/start" });
    expect(h.streamFn.calls).toHaveLength(1);
  });
});
