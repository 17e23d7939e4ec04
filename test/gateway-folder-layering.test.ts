import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

// Inside @chorus/gateway the folders form layers too: a folder imports its own layer or below, never above, and no
// files import each other in a loop longer than two. The message path and each feature then have one place, and a
// feature plugs in from above (through `extension/` and the turn hooks) instead of being known by name below.
const root = join(import.meta.dirname, "..");
const gatewaySrc = join(root, "packages", "gateway", "src");

/** The gateway's folders, bottom to top (docs/architecture.md "Inside the gateway" explains each). */
const FOLDER_LAYERS: readonly string[] = [
  "logging",
  "formatting",
  "model-calls",
  "events",
  "config",
  "policy",
  "store-health",
  "ownership",
  "telemetry",
  "lanes",
  "permissions",
  "routing",
  "delivery",
  "reply-manager",
  "turn-hooks",
  "extension",
  "titles",
  "skills",
  "model-preference",
  "context-features",
  "compaction",
  "approvals",
  "fleet",
  "subagent-sessions",
  "housekeeping",
  "commands",
  "gateway",
];

/** Source files over 500 lines, each at most its size today: to be split by responsibility (issue #31), never grown. */
const LONG_FILES_LEFT: Readonly<Record<string, number>> = {};
const MAX_LINES = 500;
/** The hub stays the message path: every feature beside it is an extension in a package of its own (issue #31). */
const MAX_GATEWAY_LINES = 12_000;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((file) => join(dir, String(file)))
    .filter((file) => file.endsWith(".ts") && !file.includes(`${sep}node_modules${sep}`) && statSync(file).isFile());
}

/** Relative imports of a file (static, `import type`, re-exports, dynamic), resolved to `.ts` paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom|\bimport|\bimport\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    const spec = match[1] as string;
    found.push(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
  }
  return found;
}

/** The top folder of a gateway source file ("." for the package's own index files). */
function folderOf(file: string): string {
  const parts = relative(gatewaySrc, file).split(sep);
  return parts.length > 1 ? (parts[0] as string) : ".";
}

const files = tsFiles(gatewaySrc);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

/** Strongly connected components (Tarjan) of the file import graph. */
function importLoops(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const loop: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        loop.push(relative(gatewaySrc, member));
      } while (member !== file);
      if (loop.length > 1) loops.push(loop.sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return loops;
}

describe("inside @chorus/gateway, imports point down only", () => {
  it("every folder has a layer", () => {
    const folders = [...new Set(files.map(folderOf))].filter((folder) => folder !== ".");
    expect(folders.filter((folder) => !FOLDER_LAYERS.includes(folder))).toEqual([]);
  });

  it("no folder imports a folder above it", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      if (from === ".") continue;
      for (const target of targets) {
        const to = folderOf(target);
        if (to === "." || to === from) continue;
        if (FOLDER_LAYERS.indexOf(to) > FOLDER_LAYERS.indexOf(from)) {
          upward.push(`${relative(gatewaySrc, file)} → ${relative(gatewaySrc, target)}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it("no import loop is longer than two files", () => {
    expect(importLoops().filter((loop) => loop.length > 2)).toEqual([]);
  });
});

describe("source files stay small", () => {
  it(`no source file under packages/*/src or apps/*/src is over ${MAX_LINES} lines (those left may not grow)`, () => {
    const sources = ["packages", "apps"].flatMap((group) =>
      readdirSync(join(root, group)).flatMap((name) => {
        const src = join(root, group, name, "src");
        try {
          return tsFiles(src);
        } catch {
          return [];
        }
      }),
    );
    const tooLong: string[] = [];
    for (const file of sources) {
      const lines = readFileSync(file, "utf8").split("\n").length - 1;
      const path = relative(root, file).split(sep).join("/");
      const allowed = LONG_FILES_LEFT[path] ?? MAX_LINES;
      if (lines > allowed) tooLong.push(`${path}: ${lines} lines (at most ${allowed})`);
    }
    expect(tooLong).toEqual([]);
  });

  it(`the gateway package is at most ${MAX_GATEWAY_LINES} lines of source`, () => {
    const lines = tsFiles(gatewaySrc).reduce((sum, file) => sum + readFileSync(file, "utf8").split("\n").length - 1, 0);
    expect(lines).toBeGreaterThan(1000); // it counts the real folder
    expect(lines).toBeLessThanOrEqual(MAX_GATEWAY_LINES);
  });
});
