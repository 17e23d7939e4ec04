import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Agent, type ToolResultMessage } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { WorkingDirectories } from "../src/execution/working-directories.js";
import { makeTempDir } from "./support/temp-workspace.js";

const exec = (command: string) => ({ toolCalls: [{ name: "exec", args: { command } }] });

function outputs(agent: Agent): string[] {
  return agent.state.messages
    .filter((m): m is ToolResultMessage => m.role === "toolResult")
    .map((m) => (m.content[0] as { text: string }).text);
}

describe("exec runs in the working directory fixed at the start of the turn (seed 002 ExecutionContext)", () => {
  let workspace: { dir: string; cleanup: () => void };
  beforeEach(() => {
    workspace = makeTempDir();
    mkdirSync(join(workspace.dir, "sub", "deeper"), { recursive: true });
  });
  afterEach(() => workspace.cleanup());

  function agentFor(script: Parameters<typeof scriptedStreamFn>[0], sessionId = "s1", dirs = new WorkingDirectories()) {
    const tools = createBuiltinTools({ workspaceRoot: workspace.dir, workingDirectories: dirs });
    return new Agent({
      model: fakeModel(),
      streamFn: scriptedStreamFn(script),
      tools,
      run: { sessionId },
      executionContext: dirs.source,
    });
  }

  it("a directory change made in a turn applies from the next turn, for that session only", async () => {
    const dirs = new WorkingDirectories({ env: { STAGE: "test" } });
    const agent = agentFor(
      [
        exec("basename $(pwd)"),
        { toolCalls: [{ name: "set_working_directory", args: { path: "sub" } }] },
        exec("basename $(pwd); echo $STAGE"),
        "moved",
        exec("basename $(pwd)"),
        { toolCalls: [{ name: "exec", args: { command: "basename $(pwd)", cwd: "deeper" } }] },
        "done",
      ],
      "s1",
      dirs,
    );
    const root = workspace.dir.split("/").at(-1);
    await agent.prompt("look, then move");
    const first = outputs(agent);
    expect(first[0]).toBe(`Exit code 0.\n${root}\n`);
    expect(first[1]).toContain("Working directory set to sub from the next turn on");
    expect(first[2]).toBe(`Exit code 0.\n${root}\ntest\n`);
    await agent.prompt("and now?");
    const second = outputs(agent);
    expect(second[3]).toBe("Exit code 0.\nsub\n");
    expect(second[4]).toBe("Exit code 0.\ndeeper\n");
    // Another session of the same agent is where it was.
    expect(dirs.get("s2")).toBe(".");
  });

  it("refuses a folder outside the workspace or one that does not exist, and keeps the old one", async () => {
    const dirs = new WorkingDirectories();
    const agent = agentFor(
      [
        { toolCalls: [{ name: "set_working_directory", args: { path: "../.." } }] },
        { toolCalls: [{ name: "set_working_directory", args: { path: "missing" } }] },
        "ok",
      ],
      "s1",
      dirs,
    );
    await agent.prompt("escape");
    const [outside, missing] = outputs(agent);
    expect(outside).toContain("climbs above the root");
    expect(missing).toContain("Not a folder in the workspace: missing");
    expect(dirs.get("s1")).toBe(".");
  });

  it("remembers a bounded number of sessions; a dropped one starts at the root again", () => {
    const dirs = new WorkingDirectories({ maxSessions: 2 });
    dirs.set("s1", "a");
    dirs.set("s2", "b");
    dirs.set("s3", "c");
    expect([dirs.get("s1"), dirs.get("s2"), dirs.get("s3")]).toEqual([".", "b", "c"]);
  });
});
