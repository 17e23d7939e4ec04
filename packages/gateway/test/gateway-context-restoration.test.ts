import { DEFAULT_SUMMARY_PROMPT, RESTORED_FILES_HEADING, type RecentFile, type ToolRunInfo } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { BASE_CONFIG, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";

/** A chat long enough to compact, whose session "read" notes.md (as the bot's read_file reports it). */
async function compactChat(contextRestoration?: Record<string, unknown>) {
  const asked: (string | undefined)[] = [];
  const recentFiles = (run: ToolRunInfo, limit: number): RecentFile[] => {
    // The changed_files reminder reads the same source before each model call (20 files); restoration asks for 10.
    if (limit === 10) asked.push(run.sessionId);
    return [{ path: "notes.md", content: "remember the milk", toolCallId: "old-read" }];
  };
  const h = await startHarness({
    config: {
      ...BASE_CONFIG,
      agents: [{ id: "main", model: "fake-model", ...(contextRestoration ? { contextRestoration } : {}) }],
    },
    script: (context) => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "Summary: notes were read." : "ok"),
    gateway: { agents: { main: { recentFiles } } },
  });
  const long = "x ".repeat(12_000);
  for (const text of [long, long, "short"]) await h.send({ text });
  await h.send({ text: "/compact" });
  await h.send({ text: "what was in my notes?" });
  const first = JSON.stringify((await h.store.readTranscript(KEY))[0]?.message);
  const lastRequest = JSON.stringify(h.streamFn.calls.at(-1)?.context.messages[0]);
  await h.close();
  return { asked, first, lastRequest };
}

describe("context restoration after /compact (agents[].contextRestoration)", () => {
  it("re-attaches the session's recently read files after the summary, stored and sent", async () => {
    const { asked, first, lastRequest } = await compactChat();
    expect(asked).toEqual([KEY]);
    for (const message of [first, lastRequest]) {
      expect(message).toContain("Summary: notes were read.");
      expect(message).toContain(RESTORED_FILES_HEADING);
      expect(message).toContain("remember the milk");
    }
  });

  it("does nothing when turned off", async () => {
    const { asked, first } = await compactChat({ enabled: false });
    expect(asked).toEqual([]);
    expect(first).toContain("Summary: notes were read.");
    expect(first).not.toContain("remember the milk");
  });

  it("re-attaches them after an automatic summary too, keeping the gateway-wide context settings", async () => {
    const recentFiles = (): RecentFile[] => [
      { path: "notes.md", content: "remember the milk", toolCallId: "old-read" },
    ];
    const h = await startHarness({
      script: (context) => (context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "Summary: notes were read." : "ok"),
      gateway: {
        agents: { main: { recentFiles } },
        loop: {
          context: { window: 10_000, reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } },
        },
      },
    });
    const long = "x ".repeat(6_000);
    for (const text of [long, long, long, "what was in my notes?"]) await h.send({ text });
    const summaries = h.streamFn.calls.filter((c) => c.context.systemPrompt === DEFAULT_SUMMARY_PROMPT);
    expect(summaries.length).toBeGreaterThan(0);
    const first = JSON.stringify(h.streamFn.calls.at(-1)?.context.messages[0]);
    expect(first).toContain("Summary: notes were read.");
    expect(first).toContain("remember the milk");
    await h.close();
  });
});
