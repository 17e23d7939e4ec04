import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const HOUR = 60 * 60 * 1000;

/** A channel that, like Discord, refuses edits of messages older than an hour, judged by the sent time it is given. */
const DISCORD_LIKE = { editWindowMs: HOUR, capabilities: { markup: "plain" as const } };

describe("edits carry the message's real sent time", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("edits a fresh preview in place with the final text", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      script: [{ blocks: [{ type: "text", text: "Hello there, friend.", chunks: ["Hello", " there,", " friend."] }] }],
      channel: DISCORD_LIKE,
      gateway: { replyMode: "preview" },
    });
    await h.channel.inject({ text: "hi" });
    await vi.advanceTimersByTimeAsync(5_000);
    await h.gateway.idle();
    expect(h.channel.transcript("dm-user-1")).toEqual(["Hello there, friend."]);
    expect(h.channel.calls.filter((call) => call.op === "edit" && call.error !== undefined)).toEqual([]);
  });

  it("sends a new message when the preview it would edit is older than an hour", async () => {
    vi.useFakeTimers();
    // The platform's clock jumps two hours while the model is still writing (a stalled stream, a suspended host).
    let skew = 0;
    h = await startHarness({
      script: [
        {
          blocks: [
            { type: "text", text: "Part one." },
            { type: "text", text: " Part two.", delayMs: 2_000 },
          ],
        },
      ],
      channel: { ...DISCORD_LIKE, now: () => Date.now() + skew },
      gateway: { replyMode: "preview" },
    });
    await h.channel.inject({ text: "hi" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.channel.transcript("dm-user-1")).toEqual(["Part one."]);
    skew = 2 * HOUR;
    await vi.advanceTimersByTimeAsync(10_000);
    await h.gateway.idle();
    const chat = h.channel.transcript("dm-user-1");
    expect(chat).toEqual(["Part one.", "Part one. Part two."]);
    const refused = h.channel.calls.filter((call) => call.op === "edit" && call.error !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((call) => call.error?.kind === "edit-window-expired")).toBe(true);
  });
});
