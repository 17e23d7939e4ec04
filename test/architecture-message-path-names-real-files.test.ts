import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// docs/architecture.md walks one message through the code, naming a file at every step. Files move (issue #31 moved
// whole folders into packages of their own): this keeps every name in that table pointing at a file that exists.
const root = join(import.meta.dirname, "..");
const doc = readFileSync(join(root, "docs", "architecture.md"), "utf8");
const section = doc.slice(doc.indexOf("## A message's path, file by file"), doc.indexOf("\nIn a cluster"));
const rows = section
  .split("\n")
  .filter((line) => /^\| \d+b? \|/.test(line))
  .map((line) => line.split("|").map((cell) => cell.trim()));

/** Every source file of a package (or app), relative to its src/. */
function sourcesOf(pkg: string): string[] {
  for (const dir of [join(root, "packages", pkg, "src"), join(root, "apps", pkg, "src")]) {
    if (existsSync(dir)) return readdirSync(dir, { recursive: true }).map((file) => String(file).split("\\").join("/"));
  }
  return [];
}

describe("docs/architecture.md's message path", () => {
  it("has its steps", () => {
    expect(rows.length).toBeGreaterThanOrEqual(12);
  });

  it.each(rows.map((cells) => ({ step: cells[1], packages: cells[3] ?? "", files: cells[4] ?? "" })))(
    "step $step names files that exist in the packages it names",
    ({ packages, files }) => {
      const named = [...packages.matchAll(/[a-z][a-z-]*/g)]
        .map((match) => match[0])
        .filter((pkg) => sourcesOf(pkg).length > 0);
      expect(named.length).toBeGreaterThan(0);
      const paths = [...files.matchAll(/`([^`]+\.ts)`/g)].map((match) => match[1] ?? "");
      expect(paths.length).toBeGreaterThan(0);
      const missing = paths.filter(
        (path) => !named.some((pkg) => sourcesOf(pkg).some((file) => file === path || file.endsWith(`/${path}`))),
      );
      expect(missing).toEqual([]);
    },
  );
});
