import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type AgentMessage } from "@chorus/core";
import { assistantText, fakeModel, scriptedStreamFn, userMessage } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { RecentFileReads } from "../src/execution/recent-file-reads.js";
import { makeTempDir } from "./support/temp-workspace.js";

const big = (tokens: number): string => "x".repeat(tokens * 4);
const isSummaryCall = (systemPrompt: string | undefined) => systemPrompt?.startsWith("You are compacting") === true;

describe("files read with read_file are re-attached after a compaction, with their current content", () => {
  let workspace: { dir: string; cleanup: () => void };
  beforeEach(() => {
    workspace = makeTempDir();
    writeFileSync(join(workspace.dir, "notes.md"), "first version\n");
    writeFileSync(join(workspace.dir, "other.md"), "other file\n");
  });
  afterEach(() => workspace.cleanup());

  function setup(sessionId: string, reads: RecentFileReads) {
    const history: AgentMessage[] = [];
    for (let i = 0; i < 6; i++) history.push(userMessage(big(500)), assistantText(big(500)));
    let main = 0;
    const streamFn = scriptedStreamFn((ctx) => {
      if (isSummaryCall(ctx.systemPrompt)) return "the gist";
      main++;
      if (main === 1) return { toolCalls: [{ name: "read_file", args: { path: "notes.md" } }] };
      return "ok";
    });
    const agent = new Agent({
      model: fakeModel({ contextWindow: 10_000 }),
      streamFn,
      messages: history,
      tools: createBuiltinTools({ workspaceRoot: workspace.dir, recentReads: reads }),
      run: { sessionId },
      context: {
        reserve: 2_000,
        blockingReserve: 500,
        compaction: { keepRecentTokens: 1_500 },
        restoration: { recentFiles: reads.source },
      },
    });
    return { agent, streamFn };
  }

  it("re-reads the file as it is now, for the session that read it", async () => {
    const reads = new RecentFileReads();
    const { agent, streamFn } = setup("s1", reads);
    await agent.prompt("read my notes");
    writeFileSync(join(workspace.dir, "notes.md"), "second version\n");
    await agent.prompt(big(3_000));
    const afterCompaction = streamFn.calls.filter((c) => !isSummaryCall(c.context.systemPrompt)).at(-1)!;
    const first = JSON.stringify(afterCompaction.context.messages[0]);
    expect(first).toContain("the gist");
    expect(first).toContain('<file path=\\"notes.md\\">');
    expect(first).toContain("second version");
    expect(first).not.toContain("first version");
    expect(first).not.toContain("other.md");
    // Another session read nothing.
    expect(await reads.source({ runId: "r", depth: 0, sessionId: "s2" }, 5)).toEqual([]);
  });

  it("leaves out a file deleted since it was read", async () => {
    const reads = new RecentFileReads();
    const { agent } = setup("s1", reads);
    await agent.prompt("read my notes");
    workspace.cleanup();
    expect(await reads.source({ runId: "r", depth: 0, sessionId: "s1" }, 5)).toEqual([]);
  });

  it("remembers a bounded number of reads and sessions", async () => {
    const reads = new RecentFileReads({ keep: 2, maxSessions: 2 });
    const read = async () => "text";
    for (const path of ["a", "b", "c", "b"]) reads.record("s1", { path, toolCallId: path, read });
    reads.record("s2", { path: "x", toolCallId: "x", read });
    reads.record("s3", { path: "y", toolCallId: "y", read });
    const run = (sessionId: string) => ({ runId: "r", depth: 0, sessionId });
    expect((await reads.source(run("s1"), 5)).map((f) => f.path)).toEqual([]);
    expect((await reads.source(run("s3"), 5)).map((f) => f.path)).toEqual(["y"]);
    const fresh = new RecentFileReads({ keep: 2 });
    for (const path of ["a", "b", "c", "b"]) fresh.record("s1", { path, toolCallId: path, read });
    expect((await fresh.source(run("s1"), 5)).map((f) => f.path)).toEqual(["b", "c"]);
  });
});
