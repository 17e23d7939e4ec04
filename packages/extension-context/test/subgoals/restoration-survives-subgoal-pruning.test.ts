import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SUMMARY_PROMPT, RESTORED_FILES_HEADING, type StreamContext, SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { Harness } from "@chorus/gateway-testing";
import { createBuiltinTools, RecentFileReads } from "@chorus/tools";
import { afterEach, describe, expect, it } from "vitest";
import { startSubgoalHarness, textOf } from "./subgoal-harness.js";

/** The channel's admin: the file tools are the owner's, not a guest's. */
const admin = { chatType: "dm" as const, chatId: "admin", sender: { id: "admin", name: "Admin" } };

/** The model: reads notes.md when asked to, names no subgoal, summarises when asked, else answers "ok". */
function model(context: StreamContext): ScriptedTurn {
  if (context.systemPrompt === SUBGOAL_PROMPT) return "NONE";
  if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) return "Summary: notes were read.";
  const last = context.messages.at(-1) as { role: string; content: unknown };
  if (last.role === "toolResult") return "I read it.";
  if (textOf(last) === "please read notes.md")
    return { toolCalls: [{ name: "read_file", args: { path: "notes.md" } }] };
  return "ok";
}

describe("context restoration with subgoal pruning on (the context extension's layer over the agent's)", () => {
  let h: Harness | undefined;
  let workspace: string;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    rmSync(workspace, { recursive: true, force: true });
  });

  it("re-attaches the file read earlier to the transcript an automatic compaction sends on", async () => {
    workspace = mkdtempSync(join(tmpdir(), "chorus-restore-"));
    writeFileSync(join(workspace, "notes.md"), "remember the milk");
    const recentReads = new RecentFileReads();
    const tools = createBuiltinTools({ workspaceRoot: workspace, recentReads }).filter((t) => t.name === "read_file");
    h = await startSubgoalHarness({
      pruning: ["subgoal"],
      script: model,
      gateway: {
        agents: { main: { tools, recentFiles: recentReads.source } },
        loop: {
          context: { window: 10_000, reserve: 2_000, blockingReserve: 500, compaction: { keepRecentTokens: 1_500 } },
        },
      },
    });
    await h.send({ ...admin, text: "please read notes.md" });
    expect(h.channel.transcript("admin").at(-1)).toBe("I read it.");
    const long = "x ".repeat(6_000); // ~3 000 tokens each: the third pushes the context past window − reserve
    for (const text of [long, long, long, "what was in my notes?"]) await h.send({ ...admin, text });

    const calls = h.streamFn.calls;
    expect(calls.some((call) => call.context.systemPrompt === SUBGOAL_PROMPT)).toBe(true);
    const summary = calls.findIndex((call) => call.context.systemPrompt === DEFAULT_SUMMARY_PROMPT);
    expect(summary).toBeGreaterThan(0);
    // The turn's request right after the summary: the summary first, the file read before it re-attached.
    const next = calls.slice(summary + 1).find((call) => call.context.systemPrompt === undefined);
    const first = JSON.stringify(next?.context.messages[0]);
    expect(first).toContain("Summary: notes were read.");
    expect(first).toContain(RESTORED_FILES_HEADING);
    expect(first).toContain("remember the milk");
    // The read itself was summarised away: only the restoration brings the file back.
    const rest = JSON.stringify(next?.context.messages.slice(1));
    expect(rest).not.toContain("remember the milk");
  });
});
