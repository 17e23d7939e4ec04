import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { openSessionOutputs } from "../src/workspace/session-outputs.js";
import { callContext, makeTempDir, runTool } from "./support/temp-workspace.js";

const guest = callContext({
  run: { runId: "g", depth: 0, sessionId: "a:main:telegram:group:-1", meta: { trustTier: "guest" } },
});
const trusted = callContext({
  run: { runId: "t", depth: 0, sessionId: "a:main:telegram:dm:5", meta: { trustTier: "trusted" } },
});

describe("a guest granted public/ reads inside it and nothing else", () => {
  let root: { dir: string; cleanup: () => void };
  let store: { dir: string; cleanup: () => void };
  let tools: ReturnType<typeof createBuiltinTools>;
  beforeEach(() => {
    root = makeTempDir();
    store = makeTempDir("chorus-outputs-");
    mkdirSync(join(root.dir, "public", "docs"), { recursive: true });
    mkdirSync(join(root.dir, "private"));
    writeFileSync(join(root.dir, "public", "hello.txt"), "hello guests\n");
    writeFileSync(join(root.dir, "public", "docs", "faq.md"), "Q: open?\n");
    writeFileSync(join(root.dir, "private", "secret.txt"), "TOP-SECRET\n");
    writeFileSync(join(root.dir, "notes.txt"), "TOP-SECRET notes\n");
    symlinkSync(join(root.dir, "private"), join(root.dir, "public", "linked"));
    symlinkSync(join(root.dir, "notes.txt"), join(root.dir, "public", "notes-link.txt"));
    tools = createBuiltinTools({
      workspaceRoot: root.dir,
      outputs: openSessionOutputs({ root: store.dir }),
      guestReadFolders: ["public"],
    });
  });
  afterEach(() => {
    root.cleanup();
    store.cleanup();
  });

  it("reads, lists, globs and greps inside public/", async () => {
    expect((await runTool(tools, "read_file", { path: "public/hello.txt" }, guest)).text).toBe("1\thello guests");
    expect((await runTool(tools, "list_dir", { path: "public" }, guest)).text).toBe(
      "docs/\nhello.txt\nlinked@\nnotes-link.txt@",
    );
    expect((await runTool(tools, "glob", { pattern: "**/*.md", path: "public" }, guest)).text).toBe("docs/faq.md");
    expect((await runTool(tools, "grep", { pattern: "open", path: "public/docs" }, guest)).text).toBe(
      "public/docs/faq.md:1:Q: open?",
    );
  });

  it("refuses everything outside public/: root, .., absolute paths, symlinks leading out, saved outputs", async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ["list_dir", {}],
      ["list_dir", { path: "." }],
      ["list_dir", { path: "private" }],
      ["read_file", { path: "notes.txt" }],
      ["read_file", { path: "public/../notes.txt" }],
      ["read_file", { path: "public/../private/secret.txt" }],
      ["read_file", { path: join(root.dir, "notes.txt") }],
      ["read_file", { path: "public/linked/secret.txt" }],
      ["read_file", { path: "public/notes-link.txt" }],
      ["list_dir", { path: "public/linked" }],
      ["glob", { pattern: "**/*" }],
      ["glob", { pattern: "linked/*", path: "public" }],
      ["grep", { pattern: "TOP-SECRET" }],
      ["grep", { pattern: "TOP-SECRET", path: "public/linked" }],
      ["grep", { pattern: "TOP-SECRET", path: "public/notes-link.txt" }],
      ["read_file", { path: "output:00000000-0000-4000-8000-000000000000.txt" }],
    ];
    for (const [tool, args] of attempts) {
      const out = await runTool(tools, tool, args, guest);
      expect(out.text, `${tool} ${JSON.stringify(args)}`).not.toContain("TOP-SECRET");
      // Listings must not even name the files behind the links.
      if (tool !== "read_file") expect(out.text, `${tool} ${JSON.stringify(args)}`).not.toContain("secret.txt");
    }
    const outside = await runTool(tools, "read_file", { path: "notes.txt" }, guest);
    expect(outside.isError).toBe(true);
    expect(outside.text).toBe('You may read only inside public/; "notes.txt" is outside. Pass a path inside it.');
  });

  it("a trusted caller still reads the whole workspace", async () => {
    expect((await runTool(tools, "read_file", { path: "private/secret.txt" }, trusted)).text).toBe("1\tTOP-SECRET");
  });

  it("with no folders granted a guest reads nothing, and a missing tier counts as guest", async () => {
    tools = createBuiltinTools({ workspaceRoot: root.dir, guestReadFolders: [] });
    for (const ctx of [guest, callContext()]) {
      const out = await runTool(tools, "read_file", { path: "public/hello.txt" }, ctx);
      expect(out.isError).toBe(true);
      expect(out.text).toBe("Reading files is not available to you here.");
    }
  });
});
