import { readdirSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { openSessionOutputs } from "../src/workspace/session-outputs.js";
import { callContext, makeTempDir, runTool } from "./support/temp-workspace.js";

const SECRET = "sk-live-0wner-secret-7f3a";
const ownerDm = { runId: "run-a", depth: 0, sessionId: "assistant:main:telegram:dm:100", meta: { trustTier: "owner" } };
const otherDm = {
  runId: "run-b",
  depth: 0,
  sessionId: "assistant:main:telegram:dm:200",
  meta: { trustTier: "trusted" },
};

describe("a cut output is saved outside the workspace and only its own session reads it back", () => {
  let workspace: { dir: string; cleanup: () => void };
  let store: { dir: string; cleanup: () => void };
  let tools: ReturnType<typeof createBuiltinTools>;
  beforeEach(() => {
    workspace = makeTempDir();
    store = makeTempDir("chorus-outputs-");
    tools = createBuiltinTools({
      workspaceRoot: workspace.dir,
      outputs: openSessionOutputs({ root: store.dir }),
      exec: { headBytes: 200, tailBytes: 200 },
    });
  });
  afterEach(() => {
    workspace.cleanup();
    store.cleanup();
  });

  async function ownerSpill(): Promise<string> {
    const out = await runTool(
      tools,
      "exec",
      { command: `seq 1 3000; echo ${SECRET}; seq 1 3000` },
      callContext({ run: ownerDm }),
    );
    const handle = /saved as (output:[0-9a-f-]+\.txt)/.exec(out.text)?.[1];
    expect(handle).toBeDefined();
    expect(out.text).not.toContain(SECRET);
    return handle ?? "";
  }

  it("the session that ran the command pages through its saved output by the handle", async () => {
    const handle = await ownerSpill();
    const page = await runTool(
      tools,
      "read_file",
      { path: handle, offset: 3001, limit: 1 },
      callContext({ run: ownerDm }),
    );
    expect(page.text).toContain(`3001\t${SECRET}`);
  });

  it("another session holding the exact handle gets 'no saved output', not the content", async () => {
    const handle = await ownerSpill();
    const page = await runTool(tools, "read_file", { path: handle }, callContext({ run: otherDm }));
    expect(page.isError).toBe(true);
    expect(page.text).toBe(`No saved output ${handle} in this conversation.`);
    expect(page.text).not.toContain(SECRET);
  });

  it("nothing of the output is in the workspace: list_dir, glob and grep find nothing, old paths do not resolve", async () => {
    const handle = await ownerSpill();
    expect(readdirSync(workspace.dir)).toEqual([]);
    const ctx = callContext({ run: otherDm });
    expect((await runTool(tools, "list_dir", { path: "." }, ctx)).text).toBe("(. is empty)");
    expect((await runTool(tools, "glob", { pattern: "**/*" }, ctx)).text).toBe("No paths match **/*.");
    expect((await runTool(tools, "grep", { pattern: SECRET }, ctx)).text).toMatch(/^No matches/);
    for (const path of [".chorus/outputs", `.chorus/outputs/${handle.slice(7)}`, store.dir]) {
      const out = await runTool(tools, "read_file", { path }, ctx);
      expect(out.isError, path).toBe(true);
      expect(out.text, path).not.toContain(SECRET);
    }
  });

  it("handles that try to climb out of the scope folder are refused as malformed", async () => {
    await ownerSpill();
    for (const path of ["output:../x.txt", "output:../../etc/passwd", "output:*.txt", "output:"]) {
      const out = await runTool(tools, "read_file", { path }, callContext({ run: ownerDm }));
      expect(out.isError, path).toBe(true);
      expect(out.text, path).toMatch(/is not a saved-output handle/);
    }
  });

  it("a host can give sub-agents their root session's scope, and no other session's", async () => {
    const rootOf = (id: string) => id.replace(/^agent:[^:]+:sub:\d+:run_[^:]+:/, "");
    tools = createBuiltinTools({
      workspaceRoot: workspace.dir,
      outputs: openSessionOutputs({ root: store.dir, scopeOf: (run) => rootOf(run.sessionId ?? "") }),
      exec: { headBytes: 200, tailBytes: 200 },
    });
    const handle = await ownerSpill();
    const child = {
      ...ownerDm,
      runId: "run-c",
      depth: 1,
      sessionId: `agent:researcher:sub:1:run_c:${ownerDm.sessionId}`,
    };
    const read = await runTool(
      tools,
      "read_file",
      { path: handle, offset: 3001, limit: 1 },
      callContext({ run: child }),
    );
    expect(read.text).toContain(SECRET);
    const strangerChild = { ...child, sessionId: `agent:researcher:sub:1:run_d:${otherDm.sessionId}` };
    const refused = await runTool(tools, "read_file", { path: handle }, callContext({ run: strangerChild }));
    expect(refused.text).toBe(`No saved output ${handle} in this conversation.`);
  });
});
