import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AnyAgentTool } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { makeTempDir, runTool } from "./support/temp-workspace.js";

describe("file tools", () => {
  let root: { dir: string; cleanup: () => void };
  let tools: AnyAgentTool[];
  beforeEach(() => {
    root = makeTempDir();
    tools = createBuiltinTools({ workspaceRoot: root.dir, read: { maxFileBytes: 100_000, maxChars: 2_000 } });
  });
  afterEach(() => root.cleanup());

  it("reads a line range, numbered, and says where to continue", async () => {
    writeFileSync(join(root.dir, "lines.txt"), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n"));
    const out = await runTool(tools, "read_file", { path: "lines.txt", offset: 10, limit: 3 });
    expect(out.text).toBe(
      "10\tline 10\n11\tline 11\n12\tline 12\n[showing lines 10-12 of 50; continue with offset=13]",
    );
  });

  it("stops at the character cap on a line boundary", async () => {
    writeFileSync(join(root.dir, "wide.txt"), Array.from({ length: 100 }, () => "x".repeat(99)).join("\n"));
    const out = await runTool(tools, "read_file", { path: "wide.txt" });
    expect(out.text.length).toBeLessThan(2_200);
    expect(out.text).toMatch(/continue with offset=\d+\]$/);
  });

  it("refuses binary files and files over the size cap", async () => {
    writeFileSync(join(root.dir, "bin.dat"), Buffer.from([1, 2, 0, 3]));
    writeFileSync(join(root.dir, "big.txt"), "a".repeat(200_000));
    expect((await runTool(tools, "read_file", { path: "bin.dat" })).text).toMatch(/binary file/);
    const big = await runTool(tools, "read_file", { path: "big.txt" });
    expect(big.isError).toBe(true);
    expect(big.text).toMatch(/over the 100000-byte limit/);
  });

  it("writes files, creating parent folders", async () => {
    const out = await runTool(tools, "write_file", { path: "a/b/c.txt", content: "héllo" });
    expect(out.text).toBe("Created a/b/c.txt (6 bytes).");
    expect(readFileSync(join(root.dir, "a/b/c.txt"), "utf8")).toBe("héllo");
  });

  it("edits only a unique match and states the count otherwise", async () => {
    writeFileSync(join(root.dir, "e.txt"), "foo bar foo\nbaz\n");
    const dup = await runTool(tools, "edit_file", { path: "e.txt", old_string: "foo", new_string: "qux" });
    expect(dup.isError).toBe(true);
    expect(dup.text).toMatch(/occurs 2 times/);
    expect(readFileSync(join(root.dir, "e.txt"), "utf8")).toBe("foo bar foo\nbaz\n");
    const missing = await runTool(tools, "edit_file", { path: "e.txt", old_string: "nope", new_string: "x" });
    expect(missing.text).toMatch(/not found/);
    const ok = await runTool(tools, "edit_file", { path: "e.txt", old_string: "baz", new_string: "$& $1" });
    expect(ok.text).toBe("Edited e.txt: 1 replacement.");
    expect(readFileSync(join(root.dir, "e.txt"), "utf8")).toBe("foo bar foo\n$& $1\n");
    await runTool(tools, "edit_file", { path: "e.txt", old_string: "foo", new_string: "F", replace_all: true });
    expect(readFileSync(join(root.dir, "e.txt"), "utf8")).toBe("F bar F\n$& $1\n");
  });

  it("lists folders first, then files", async () => {
    writeFileSync(join(root.dir, "b.txt"), "");
    writeFileSync(join(root.dir, "a.txt"), "");
    await runTool(tools, "write_file", { path: "zdir/x.txt", content: "" });
    expect((await runTool(tools, "list_dir", {})).text).toBe("zdir/\na.txt\nb.txt");
  });

  it("globs recursively and skips node_modules", async () => {
    for (const p of ["src/a.ts", "src/deep/b.ts", "src/c.js", "node_modules/x/d.ts"]) {
      await runTool(tools, "write_file", { path: p, content: "" });
    }
    expect((await runTool(tools, "glob", { pattern: "**/*.ts" })).text).toBe("src/a.ts\nsrc/deep/b.ts");
    expect((await runTool(tools, "glob", { pattern: "*.ts", path: "src" })).text).toBe("a.ts");
  });

  it("greps with include/exclude and a result cap", async () => {
    await runTool(tools, "write_file", { path: "src/a.ts", content: "const TODO = 1;\n// todo later\n" });
    await runTool(tools, "write_file", { path: "src/b.md", content: "TODO: docs\n" });
    await runTool(tools, "write_file", { path: "test/a.test.ts", content: "TODO test\n" });
    const all = await runTool(tools, "grep", {
      pattern: "todo",
      ignore_case: true,
      include: ["**/*.ts"],
      exclude: ["test/**"],
    });
    expect(all.text).toBe("src/a.ts:1:const TODO = 1;\nsrc/a.ts:2:// todo later");
    const capped = await runTool(tools, "grep", { pattern: "TODO", max_results: 1 });
    expect(capped.text).toMatch(/^src\/a.ts:1:.*\n\[stopped at 1 matches/);
    const bad = await runTool(tools, "grep", { pattern: "(" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Invalid regular expression/);
  });
});
