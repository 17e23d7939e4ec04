import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { chatSdkSystem } from "../src/side-by-side/chat-sdk-system.js";
import { chorusSystem } from "../src/side-by-side/chorus-system.js";
import { runSideBySide } from "../src/side-by-side/run-side-by-side.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const tiny = (chats: number, firstChat: number) => ({
  chats,
  messagesPerChat: 2,
  maxOutstanding: 2,
  firstChat,
  replyTimeoutMs: 10_000,
});

// The bots run as their own processes from bench/dist and apps/bot/dist, as in the bench: build them (turbo: cached
// when nothing changed).
beforeAll(async () => {
  await promisify(execFile)(
    fileURLToPath(new URL("node_modules/.bin/turbo", `file://${REPO_ROOT}`)),
    ["run", "build", "--filter=@chorus/bench...", "--filter=@chorus/bot...", "--output-logs=errors-only"],
    { cwd: REPO_ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
  );
}, 250_000);

describe("the side-by-side bench's bots, child processes, answer through the testkit fakes", () => {
  it("the Chat SDK bots (AI SDK, plain fetch) and chorus start, taking turns, answer Telegram webhook updates and signed Slack events once each with the model's text", async () => {
    // A reply counts only when it carries the fake model's whole answer (`ok <key>`), so every bot below answered
    // through the fake model, the fetch bot by reading its SSE stream to the end.
    const series = await runSideBySide(
      {
        platforms: ["telegram", "slack"],
        systems: [chatSdkSystem("ai", "memory"), chatSdkSystem("fetch", "memory"), chorusSystem],
        rounds: 1,
        chatSdkConcurrency: "queue",
        plan: { warmup: tiny(1, 100), timed: tiny(2, 0), settleMs: 100 },
      },
      () => {},
    );
    expect(series.map((s) => [s.platform, s.system.id])).toEqual([
      ["telegram", "chat-sdk-ai-memory"],
      ["telegram", "chat-sdk-fetch-memory"],
      ["telegram", "chorus"],
      ["slack", "chat-sdk-ai-memory"],
      ["slack", "chat-sdk-fetch-memory"],
      ["slack", "chorus"],
    ]);
    expect(chatSdkSystem("fetch", "memory").expectedReply("hello bench7x", "bench7x")).toBe("ok bench7x");
    for (const { rounds } of series) {
      const [run] = rounds;
      expect(run?.counts).toEqual({ injected: 4, replies: 4, duplicates: 0, losses: 0, strays: 0 });
      expect(run?.cpuMsPerMessage).toBeGreaterThanOrEqual(0);
      expect(run?.p99Ms).toBeGreaterThanOrEqual(run?.p50Ms ?? 0);
    }
  }, 90_000);
});
