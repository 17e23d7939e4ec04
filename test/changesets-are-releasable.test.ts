import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// `changeset version` refuses the whole release when one changeset names an ignored or unknown package
// ("Found mixed changeset"), so each one is checked here, long before a release.
const root = join(import.meta.dirname, "..");
const folder = join(root, ".changeset");
const config = JSON.parse(readFileSync(join(folder, "config.json"), "utf8")) as { ignore: string[] };
const publishable = new Set(
  ["packages", "apps"]
    .flatMap((parent) => readdirSync(join(root, parent)).map((dir) => join(root, parent, dir, "package.json")))
    .map((file) => JSON.parse(readFileSync(file, "utf8")) as { name: string; private?: boolean })
    .filter((pkg) => pkg.private !== true && !config.ignore.includes(pkg.name))
    .map((pkg) => pkg.name),
);
const changesets = readdirSync(folder)
  .filter((file) => file.endsWith(".md") && file !== "README.md")
  .map((file) => ({ file, text: readFileSync(join(folder, file), "utf8") }));

describe.each(changesets)(".changeset/$file", ({ text }) => {
  it("bumps only publishable packages, with a summary", () => {
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    expect(match, "front matter between --- lines").not.toBeNull();
    const lines = (match?.[1] ?? "").split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const bump = /^"([^"]+)": (major|minor|patch)$/.exec(line);
      expect(bump, line).not.toBeNull();
      expect(publishable.has(bump?.[1] ?? ""), `${bump?.[1]} is not a publishable, non-ignored package`).toBe(true);
    }
    expect((match?.[2] ?? "").trim().length).toBeGreaterThan(20);
  });
});
