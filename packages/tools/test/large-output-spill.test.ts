import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grepTool, readFileTool } from "../src/builtins/fs-tools.js";
import { countLines, fitOutput } from "../src/workspace/output-spill.js";
import { openSessionOutputs, type SessionOutputs } from "../src/workspace/session-outputs.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace-root.js";
import { callContext, makeTempDir, runTool } from "./support/temp-workspace.js";

describe("large outputs are cut and kept in full", () => {
  let root: { dir: string; cleanup: () => void };
  let store: { dir: string; cleanup: () => void };
  let workspace: Workspace;
  let outputs: SessionOutputs;
  const run = { runId: "run-1", depth: 0, sessionId: "assistant:main:telegram:dm:1" };
  beforeEach(() => {
    root = makeTempDir();
    store = makeTempDir("chorus-outputs-");
    workspace = openWorkspace(root.dir);
    outputs = openSessionOutputs({ root: store.dir });
  });
  afterEach(() => {
    root.cleanup();
    store.cleanup();
  });

  it("leaves short output unchanged", async () => {
    expect(await fitOutput(outputs, run, "short", 100)).toEqual({ text: "short" });
  });

  it("cuts the middle, states how much, and the saved copy is readable by range through its handle", async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `row ${i + 1}`).join("\n");
    const fitted = await fitOutput(outputs, run, text, 500);
    expect(fitted.text.startsWith("row 1\nrow 2")).toBe(true);
    expect(fitted.text.endsWith("row 1000")).toBe(true);
    expect(fitted.spill?.cutChars).toBe(text.length - 500);
    expect(fitted.text).toContain(`${text.length - 500} of ${text.length} characters cut (1000 lines in all)`);
    const path = fitted.spill?.path ?? "";
    expect(path).toMatch(/^output:[0-9a-f-]{36}\.txt$/);
    expect(fitted.text).toContain(`saved as ${path}`);
    const page = await runTool(
      [readFileTool(workspace, {}, { outputs })],
      "read_file",
      {
        path,
        offset: 500,
        limit: 2,
      },
      callContext({ run }),
    );
    expect(page.text).toBe("500\trow 500\n501\trow 501\n[showing lines 500-501 of 1000; continue with offset=502]");
  });

  it("grep output over the budget is spilled outside the workspace", async () => {
    writeFileSync(join(root.dir, "many.txt"), Array.from({ length: 400 }, (_, i) => `match ${i}`).join("\n"));
    const out = await runTool([grepTool(workspace, 1000, { outputs })], "grep", { pattern: "match", max_results: 400 });
    expect(out.text).toMatch(/characters cut .* saved as output:[0-9a-f-]+\.txt/s);
    const again = await runTool([grepTool(workspace, 100_000, { outputs })], "grep", { pattern: "match 399" });
    expect(again.text).toBe("many.txt:400:match 399");
  });

  it("counts lines with and without a trailing newline", () => {
    expect([countLines(""), countLines("a"), countLines("a\n"), countLines("a\nb")]).toEqual([0, 1, 1, 2]);
  });
});
