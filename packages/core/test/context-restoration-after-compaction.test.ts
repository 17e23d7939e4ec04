import { describe, expect, it } from "vitest";
import {
  type AgentMessage,
  agentLoop,
  type ContextRestorationConfig,
  RESTORED_FILES_HEADING,
  type RecentFile,
  restorationText,
  SUMMARY_PREFIX,
} from "../src/index.js";
import {
  assistantText,
  assistantToolCalls,
  fakeModel,
  scriptedStreamFn,
  toolResult,
  userMessage,
} from "../src/testing/index.js";
import { collect, ofType } from "./support/test-tools.js";

const big = (tokens: number): string => "x".repeat(tokens * 4);
const model = fakeModel({ contextWindow: 10_000 });
const context = { reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } };

/** A long history whose first turns read files a.ts and b.ts; the read of c.ts is recent and survives compaction. */
function history(): AgentMessage[] {
  const messages: AgentMessage[] = [
    userMessage("read a and b"),
    assistantToolCalls([
      { name: "read_file", id: "read-a", args: { path: "a.ts" } },
      { name: "read_file", id: "read-b", args: { path: "b.ts" } },
    ]),
    toolResult("read-a", "read_file", "old a"),
    toolResult("read-b", "read_file", "old b"),
  ];
  for (let i = 0; i < 10; i++) messages.push(userMessage(big(500)), assistantText(big(400)));
  messages.push(
    userMessage("read c"),
    assistantToolCalls([{ name: "read_file", id: "read-c", args: { path: "c.ts" } }]),
    toolResult("read-c", "read_file", "current c"),
  );
  return messages;
}

const files: RecentFile[] = [
  { path: "c.ts", content: "current c", toolCallId: "read-c" },
  { path: "b.ts", content: "export const b = 2;", toolCallId: "read-b" },
  { path: "a.ts", content: "export const a = 1;", toolCallId: "read-a" },
];

async function compactWith(restoration: ContextRestorationConfig | undefined) {
  const streamFn = scriptedStreamFn((ctx) => (ctx.systemPrompt?.startsWith("You are compacting") ? "the gist" : "ok"));
  const events = await collect(
    agentLoop(
      [userMessage("go on")],
      { messages: history() },
      { model, streamFn, context: restoration === undefined ? context : { ...context, restoration } },
    ),
  );
  const request = streamFn.calls.find((call) => !call.context.systemPrompt?.startsWith("You are compacting"));
  return { events, first: request?.context.messages[0] };
}

const textsOf = (message: unknown): string[] => {
  const content = (message as { content: string | { type: string; text?: string }[] }).content;
  return typeof content === "string" ? [content] : content.map((part) => part.text ?? "");
};

describe("context restoration after a summarising compaction (seed 004)", () => {
  it("re-attaches the recently read files after the summary, with their current content", async () => {
    const { events, first } = await compactWith({ recentFiles: () => files });
    expect(ofType(events, "compaction")[0]?.kind).toBe("summary");
    const [summary, restored] = textsOf(first);
    expect(summary).toBe(`${SUMMARY_PREFIX}the gist`);
    expect(restored).toContain(RESTORED_FILES_HEADING);
    expect(restored).toContain('<file path="b.ts">\nexport const b = 2;\n</file>');
    expect(restored).toContain('<file path="a.ts">\nexport const a = 1;\n</file>');
    // c.ts's read is still in the kept messages: not attached twice.
    expect(restored).not.toContain("c.ts");
    // The compaction event carries the restored transcript.
    expect(textsOf(ofType(events, "compaction")[0]?.messages[0])).toHaveLength(2);
  });

  it("asks the source for the run's files, and does nothing when disabled or without a source", async () => {
    const asked: number[] = [];
    await compactWith({
      recentFiles: (_run, limit) => {
        asked.push(limit);
        return files;
      },
      maxFiles: 2,
    });
    expect(asked).toEqual([4]);
    expect(textsOf((await compactWith({ enabled: false, recentFiles: () => files })).first)).toHaveLength(1);
    expect(textsOf((await compactWith(undefined)).first)).toEqual([`${SUMMARY_PREFIX}the gist`]);
  });

  it("a failing source leaves the compaction as it was", async () => {
    const { events, first } = await compactWith({
      recentFiles: () => {
        throw new Error("disk gone");
      },
    });
    expect(ofType(events, "agent_end")[0]?.reason).toBe("completed");
    expect(textsOf(first)).toEqual([`${SUMMARY_PREFIX}the gist`]);
  });

  it("never re-attaches after a micro-compaction (tier 2 only)", async () => {
    const rounds: AgentMessage[] = [userMessage("start")];
    for (let i = 0; i < 5; i++) {
      rounds.push(
        assistantToolCalls([{ name: "read_file", id: `r${i}` }]),
        toolResult(`r${i}`, "read_file", big(15_000)),
      );
    }
    let asked = false;
    const streamFn = scriptedStreamFn(["ok"]);
    const events = await collect(
      agentLoop(
        [userMessage("next")],
        { messages: rounds },
        {
          model: fakeModel(),
          streamFn,
          context: {
            restoration: {
              recentFiles: () => {
                asked = true;
                return files;
              },
            },
          },
        },
      ),
    );
    expect(ofType(events, "compaction")[0]?.kind).toBe("micro");
    expect(asked).toBe(false);
  });
});

describe("restorationText bounds (5 files, 50 000 tokens, 5 000 per file)", () => {
  const many = (n: number, tokens: number): RecentFile[] =>
    Array.from({ length: n }, (_, i) => ({ path: `f${i}.ts`, content: big(tokens) }));

  it("attaches at most maxFiles files, most recent first, once per path", () => {
    const out = restorationText([...many(8, 10), { path: "f0.ts", content: "older read of f0" }], []);
    expect(out?.paths).toEqual(["f0.ts", "f1.ts", "f2.ts", "f3.ts", "f4.ts"]);
  });

  it("cuts a file to the per-file limit with a note", () => {
    const out = restorationText(many(1, 20_000), []);
    expect(out!.tokens).toBeLessThanOrEqual(5_000);
    expect(out!.text).toContain("[... cut: 80000 characters in all; read the file for the rest]");
  });

  it("never exceeds the total budget", () => {
    const out = restorationText(many(5, 4_000), [], { totalBudgetTokens: 9_000 });
    expect(out!.paths).toEqual(["f0.ts", "f1.ts"]);
    expect(out!.tokens).toBeLessThanOrEqual(9_000);
    expect(restorationText([], [])).toBeUndefined();
  });
});
