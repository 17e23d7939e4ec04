import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The conventions issue #2 sets for every package, checked so a new package cannot drift.
const root = join(import.meta.dirname, "..");
const dirs = [
  ...readdirSync(join(root, "packages")).map((d) => join("packages", d)),
  ...readdirSync(join(root, "apps")).map((d) => join("apps", d)),
  "bench",
];
const manifests = dirs.map((dir) => ({
  dir,
  pkg: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Record<string, unknown>,
}));
const internal = new Set(manifests.map(({ pkg }) => pkg.name as string));

describe.each(manifests)("$dir", ({ dir, pkg }) => {
  it("is ESM with a README", () => {
    expect(pkg.type).toBe("module");
    expect(existsSync(join(root, dir, "README.md"))).toBe(true);
  });

  it("lists `types` first in every exports entry", () => {
    if (dir === "bench") return;
    const exportsMap = pkg.exports as Record<string, Record<string, string>>;
    expect(Object.keys(exportsMap).length).toBeGreaterThan(0);
    for (const entry of Object.values(exportsMap)) expect(Object.keys(entry)[0]).toBe("types");
  });

  it("uses workspace:* for workspace dependencies", () => {
    for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
      const deps = (pkg[field] ?? {}) as Record<string, string>;
      for (const [name, range] of Object.entries(deps)) if (internal.has(name)) expect(range, name).toBe("workspace:*");
    }
  });

  it("is publishable or private", () => {
    if (pkg.private) return;
    expect(pkg.publishConfig).toBeDefined();
    expect(pkg.files).toBeDefined();
    expect(pkg.license).toBeTruthy();
    expect(pkg.engines).toEqual({ node: ">=22" });
  });

  it("has src/ and compiles strictly", () => {
    expect(existsSync(join(root, dir, "src"))).toBe(true);
    const base = JSON.parse(readFileSync(join(root, "tsconfig.base.json"), "utf8")).compilerOptions;
    expect(base).toMatchObject({ strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true });
    const own = JSON.parse(readFileSync(join(root, dir, "tsconfig.json"), "utf8"));
    expect(own.extends).toMatch(/tsconfig\.base\.json$/);
  });
});
