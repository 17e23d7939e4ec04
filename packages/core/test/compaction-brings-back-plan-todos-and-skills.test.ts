import { describe, expect, it } from "vitest";
import {
  type AgentMessage,
  agentLoop,
  type ContextRestorationConfig,
  RESTORED_FILES_HEADING,
  RESTORED_PLAN_HEADING,
  RESTORED_SKILLS_HEADING,
  RESTORED_TODOS_HEADING,
  restorationSections,
  restoredSkillNames,
  SUMMARY_PREFIX,
  withRestoredContext,
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
const tokensOf = (text: string): number => Math.ceil(text.length / 4);
const model = fakeModel({ contextWindow: 10_000 });
const context = { reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } };
const isSummaryCall = (systemPrompt: string | undefined): boolean =>
  systemPrompt?.startsWith("You are compacting") ?? false;

/** A long history whose first turn loaded the skill "deploy"; old enough to be summarised away. */
function history(): AgentMessage[] {
  const messages: AgentMessage[] = [
    userMessage("load the deploy skill"),
    assistantToolCalls([{ name: "load_skill", id: "skill-1", args: { name: "deploy" } }]),
    toolResult("skill-1", "load_skill", "Deploy with `make ship`, never on Fridays."),
  ];
  for (let i = 0; i < 10; i++) messages.push(userMessage(big(500)), assistantText(big(400)));
  return messages;
}

/** Runs one prompt over the long history: the loop compacts first; returns the next request's first message's texts. */
async function compactWith(restoration: ContextRestorationConfig) {
  const streamFn = scriptedStreamFn((ctx) => (isSummaryCall(ctx.systemPrompt) ? "the gist" : "ok"));
  const events = await collect(
    agentLoop(
      [userMessage("go on")],
      { messages: history() },
      { model, streamFn, context: { ...context, restoration } },
    ),
  );
  const request = streamFn.calls.find((call) => !isSummaryCall(call.context.systemPrompt));
  const first = request?.context.messages[0] as { content: string | { type: string; text?: string }[] } | undefined;
  const texts = typeof first?.content === "string" ? [first.content] : (first?.content ?? []).map((p) => p.text ?? "");
  return { events, texts };
}

/** A skills source that finds load_skill calls in the transcript before the summary, as @chorus/tools' does. */
const skillsFromTranscript: ContextRestorationConfig["skills"] = (_run, transcript) => {
  const loaded = transcript.flatMap((m) =>
    m.role === "assistant"
      ? m.content.flatMap((part) =>
          part.type === "toolCall" && part.name === "load_skill" ? [part.arguments.name] : [],
        )
      : [],
  );
  return loaded.map((name) => ({ name: String(name), content: "Deploy with `make ship`, never on Fridays." }));
};

describe("restoration after a summarising compaction brings back the plan, the todos and the skills (seed 004)", () => {
  it("puts them, with the files, in one attachment after the summary of the next request", async () => {
    const { events, texts } = await compactWith({
      plan: () => "1. read the parser\n2. split it in two",
      todos: () => ["write the tests", "update the README"],
      skills: skillsFromTranscript,
      recentFiles: () => [{ path: "notes.md", content: "remember the milk" }],
    });
    expect(ofType(events, "compaction")).toHaveLength(1);
    expect(texts).toHaveLength(2);
    const [summary, restored = ""] = texts;
    expect(summary).toBe(`${SUMMARY_PREFIX}the gist`);
    expect(restored).toContain(`${RESTORED_PLAN_HEADING}\n<plan>\n1. read the parser\n2. split it in two\n</plan>`);
    expect(restored).toContain(`${RESTORED_TODOS_HEADING}\n- write the tests\n- update the README`);
    expect(restored).toContain(
      `${RESTORED_SKILLS_HEADING}\n\n<skill name="deploy">\nDeploy with \`make ship\`, never on Fridays.\n</skill>`,
    );
    expect(restored).toContain(`${RESTORED_FILES_HEADING}\n\n<file path="notes.md">\nremember the milk\n</file>`);
    // Plan first, files last: what the agent works on before what it read.
    expect(restored.indexOf(RESTORED_PLAN_HEADING)).toBeLessThan(restored.indexOf(RESTORED_FILES_HEADING));
  });

  it("a throwing or late source is left out and the compaction still holds, with the others restored", async () => {
    const started = Date.now();
    const { events, texts } = await compactWith({
      plan: () => {
        throw new Error("plan store gone");
      },
      todos: () => new Promise<string[]>(() => {}),
      skills: skillsFromTranscript,
      sourceTimeoutMs: 50,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(ofType(events, "compaction")).toHaveLength(1);
    expect(ofType(events, "agent_end")[0]?.reason).toBe("completed");
    const restored = texts[1] ?? "";
    expect(restored).toContain('<skill name="deploy">');
    expect(restored).not.toContain(RESTORED_PLAN_HEADING);
    expect(restored).not.toContain(RESTORED_TODOS_HEADING);
  });

  it("says which sources failed, and changes nothing when all of them fail", async () => {
    const compacted = [userMessage("summary")];
    const outcome = await withRestoredContext(
      {
        plan: () => Promise.reject(new Error("boom")),
        todos: () => new Promise<string[]>(() => {}),
        sourceTimeoutMs: 20,
      },
      { runId: "r", depth: 0 },
      compacted,
    );
    expect(outcome.messages).toBe(compacted);
    expect(outcome.error).toBe("plan: boom; todos: no answer within 20 ms");
  });

  it("keeps each part within its cap, cut with a note, and all of them within the total", async () => {
    const outcome = await withRestoredContext(
      {
        plan: () => big(8_000),
        todos: () => Array.from({ length: 400 }, (_, i) => `item ${i} ${"y".repeat(40)}`),
        skills: () => [
          { name: "a", content: big(7_000) },
          { name: "b", content: big(4_000) },
          { name: "c", content: big(4_000) },
          { name: "d", content: big(4_000) },
        ],
        recentFiles: () => [{ path: "big.md", content: big(20_000) }],
        totalBudgetTokens: 27_000,
      },
      { runId: "r", depth: 0 },
      [userMessage("summary")],
    );
    const restored = (outcome.messages[0] as { content: { text: string }[] }).content[1]?.text ?? "";
    expect(tokensOf(restored)).toBeLessThanOrEqual(27_000);
    const plan = restored.slice(restored.indexOf(RESTORED_PLAN_HEADING), restored.indexOf(RESTORED_TODOS_HEADING));
    expect(tokensOf(plan)).toBeLessThanOrEqual(5_001);
    expect(plan).toContain("[... cut: 32000 characters in all; the rest of the plan is not shown]");
    const todos = restored.slice(restored.indexOf(RESTORED_TODOS_HEADING), restored.indexOf(RESTORED_SKILLS_HEADING));
    expect(tokensOf(todos)).toBeLessThanOrEqual(2_001);
    expect(todos).toMatch(/\[\.\.\. \d+ more items not shown\]/);
    expect(todos).toContain("- item 0 ");
    const skills = restored.slice(restored.indexOf(RESTORED_SKILLS_HEADING), restored.indexOf(RESTORED_FILES_HEADING));
    expect(tokensOf(skills)).toBeLessThanOrEqual(15_001);
    expect(skills).toContain("the rest of the skill is not shown");
    expect(skills).toContain("[... not restored, load again if needed: d]");
    // The files got what was left of the total.
    expect(restored).toContain('<file path="big.md">');
  });

  it("carries restored skills over the next compaction: their names are read back from the attachment", () => {
    const { texts } = restorationSections({ skills: [{ name: "deploy", content: "ship it" }] });
    const transcript = [{ role: "user" as const, content: texts.join("\n\n"), timestamp: 1 }, userMessage("next")];
    expect(restoredSkillNames(transcript)).toEqual(["deploy"]);
    expect(restoredSkillNames([userMessage('<skill name="fake">')])).toEqual([]);
  });

  it("adds nothing when restoration is off, or when the sources have nothing", async () => {
    const off = await compactWith({ enabled: false, plan: () => "a plan" });
    expect(off.texts).toEqual([`${SUMMARY_PREFIX}the gist`]);
    const empty = await compactWith({ plan: () => "  ", todos: () => [], skills: () => [] });
    expect(empty.texts).toEqual([`${SUMMARY_PREFIX}the gist`]);
  });
});
