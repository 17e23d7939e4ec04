import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AnyAgentTool } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { makeTempDir, runTool } from "./support/temp-workspace.js";

describe("workspace confinement", () => {
  let root: { dir: string; cleanup: () => void };
  let outside: { dir: string; cleanup: () => void };
  let tools: AnyAgentTool[];

  beforeEach(() => {
    root = makeTempDir();
    outside = makeTempDir("chorus-outside-");
    writeFileSync(join(outside.dir, "secret.txt"), "TOP SECRET\n");
    writeFileSync(join(root.dir, "inside.txt"), "hello\n");
    mkdirSync(join(root.dir, "sub"));
    symlinkSync(outside.dir, join(root.dir, "escape-dir"));
    symlinkSync(join(outside.dir, "secret.txt"), join(root.dir, "escape-file.txt"));
    symlinkSync(join(root.dir, "inside.txt"), join(root.dir, "sub", "ok-link.txt"));
    tools = createBuiltinTools({ workspaceRoot: root.dir });
  });
  afterEach(() => {
    root.cleanup();
    outside.cleanup();
  });

  it("refuses .. that climbs above the root", async () => {
    const out = await runTool(tools, "read_file", { path: "sub/../../x.txt" });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/outside the workspace.*\.\./);
  });

  it("refuses absolute paths, even ones that exist", async () => {
    const out = await runTool(tools, "read_file", { path: join(outside.dir, "secret.txt") });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/absolute paths are not allowed/);
  });

  it("refuses reading through a symlinked file or folder that points outside", async () => {
    for (const path of ["escape-file.txt", "escape-dir/secret.txt"]) {
      const out = await runTool(tools, "read_file", { path });
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/symlink that points outside/);
      expect(out.text).not.toContain("TOP SECRET");
    }
  });

  it("refuses writing a new file through a symlinked folder", async () => {
    const out = await runTool(tools, "write_file", { path: "escape-dir/new.txt", content: "x" });
    expect(out.isError).toBe(true);
    const list = await runTool(tools, "list_dir", { path: "escape-dir" });
    expect(list.isError).toBe(true);
  });

  it("allows a symlink that stays inside the root", async () => {
    const out = await runTool(tools, "read_file", { path: "sub/ok-link.txt" });
    expect(out.isError).toBeUndefined();
    expect(out.text).toContain("hello");
  });

  it("keeps grep, glob and exec inside the root", async () => {
    const grep = await runTool(tools, "grep", { pattern: "SECRET" });
    expect(grep.text).not.toContain("TOP SECRET");
    const grepOut = await runTool(tools, "grep", { pattern: "x", path: "../" });
    expect(grepOut.isError).toBe(true);
    const glob = await runTool(tools, "glob", { pattern: "../**/*.txt" });
    expect(glob.isError).toBe(true);
    const globThroughLink = await runTool(tools, "glob", { pattern: "escape-dir/*" });
    expect(globThroughLink.text).not.toContain("secret.txt");
    const exec = await runTool(tools, "exec", { command: "pwd", cwd: "escape-dir" });
    expect(exec.isError).toBe(true);
    expect(exec.text).toMatch(/outside the workspace/);
  });
});
