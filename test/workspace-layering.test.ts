import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

// The dependency arrows of the workspace go one way, and no package reaches into another's files. The layering is
// read from every package.json, so a new package or dependency is checked the day it is added.
const root = join(import.meta.dirname, "..");

/** Bottom to top. A package may depend on its own layer or below, never above. */
const LAYERS: readonly (readonly RegExp[])[] = [
  [/^@chorus\/core$/],
  [/^@chorus\/providers$/, /^@chorus\/tools$/, /^@chorus\/memory$/, /^@chorus\/store$/, /^@chorus\/channel$/],
  [/^@chorus\/gateway$/],
  [
    /^@chorus\/channel-[a-z0-9-]+$/,
    /^@chorus\/store-[a-z0-9-]+$/,
    /^@chorus\/extension-[a-z0-9-]+$/,
    /^@chorus\/gateway-testing$/,
  ],
  [/^@chorus\/bot$/, /^@chorus\/bench$/],
];
/** Test doubles: a dev dependency of anyone, a runtime dependency only of private programs (the bench). */
const TESTKIT = "@chorus/testkit";

interface Manifest {
  readonly dir: string;
  readonly name: string;
  readonly private: boolean;
  readonly dependencies: readonly string[];
  readonly devDependencies: readonly string[];
}

const packageDirs = [
  ...readdirSync(join(root, "packages")).map((d) => join("packages", d)),
  ...readdirSync(join(root, "apps")).map((d) => join("apps", d)),
  "bench",
].filter((dir) => existsSync(join(root, dir, "package.json")));

const manifests: Manifest[] = packageDirs.map((dir) => {
  const pkg = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
    name: string;
    private?: boolean;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const internal = (deps: Record<string, string> = {}) => Object.keys(deps).filter((n) => n.startsWith("@chorus/"));
  return {
    dir,
    name: pkg.name,
    private: pkg.private === true,
    dependencies: internal(pkg.dependencies),
    devDependencies: internal(pkg.devDependencies),
  };
});

function layerOf(name: string): number {
  return LAYERS.findIndex((layer) => layer.some((pattern) => pattern.test(name)));
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map((file) => join(dir, String(file)))
    .filter(
      (file) => /\.(ts|mts|mjs)$/.test(file) && !file.includes(`${sep}node_modules${sep}`) && statSync(file).isFile(),
    );
}

/** Every module specifier of a file: static imports and exports, `import(…)`, `vi.mock(…)`. */
function specifiersOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom|\bimport|\bimport\(|vi\.mock\()\s*["']([^"']+)["']/g)) {
    if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

describe("the dependency arrows point down only", () => {
  it("every workspace package has a layer (or is the testkit)", () => {
    const unplaced = manifests.filter((m) => m.name !== TESTKIT && layerOf(m.name) === -1).map((m) => m.name);
    expect(unplaced).toEqual([]);
  });

  it("the layers are the ones the README names, bottom to top", () => {
    const names = manifests.map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "@chorus/core",
        "@chorus/providers",
        "@chorus/tools",
        "@chorus/gateway",
        "@chorus/channel-discord",
        "@chorus/channel-slack",
        "@chorus/channel-telegram",
        "@chorus/store-sqlite",
        "@chorus/store-postgres",
        "@chorus/gateway-testing",
        "@chorus/extension-memory",
        "@chorus/extension-autonomy",
        "@chorus/extension-plan-mode",
        "@chorus/extension-media",
        "@chorus/extension-context",
        "@chorus/extension-titles",
        "@chorus/store",
        "@chorus/channel",
        "@chorus/bot",
      ]),
    );
    expect(layerOf("@chorus/bot")).toBeGreaterThan(layerOf("@chorus/channel-telegram"));
    expect(layerOf("@chorus/channel-telegram")).toBeGreaterThan(layerOf("@chorus/gateway"));
    expect(layerOf("@chorus/store-sqlite")).toBe(layerOf("@chorus/channel-telegram"));
    expect(layerOf("@chorus/store-postgres")).toBe(layerOf("@chorus/store-sqlite"));
    // The store conformance suites and channel fixtures stand on the gateway, beside the stores and adapters they test.
    expect(layerOf("@chorus/gateway-testing")).toBe(layerOf("@chorus/store-sqlite"));
    // An extension package stands on the gateway like an adapter; the gateway knows no extension.
    expect(layerOf("@chorus/extension-memory")).toBe(layerOf("@chorus/store-sqlite"));
    expect(layerOf("@chorus/gateway")).toBeGreaterThan(layerOf("@chorus/tools"));
    // The session store contract sits below the gateway: a store package needs it, not the gateway.
    expect(layerOf("@chorus/gateway")).toBeGreaterThan(layerOf("@chorus/store"));
    // So does the channel contract: a platform adapter needs it, not the gateway.
    expect(layerOf("@chorus/gateway")).toBeGreaterThan(layerOf("@chorus/channel"));
    expect(layerOf("@chorus/tools")).toBeGreaterThan(layerOf("@chorus/core"));
  });

  it.each(manifests)("$name depends on nothing above it", (manifest) => {
    const upward: string[] = [];
    for (const [field, deps] of [
      ["dependencies", manifest.dependencies],
      ["devDependencies", manifest.devDependencies],
    ] as const) {
      for (const dep of deps) {
        if (dep === TESTKIT) {
          if (field === "dependencies" && !manifest.private) upward.push(`${dep} (a runtime dependency of a library)`);
          continue;
        }
        if (manifest.name === TESTKIT) {
          if (layerOf(dep) > 0) upward.push(dep); // the testkit stands on core alone
          continue;
        }
        if (layerOf(dep) > layerOf(manifest.name)) upward.push(`${dep} (${field})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it.each(manifests)("$name imports only the workspace packages its package.json names", (manifest) => {
    const undeclared = new Set<string>();
    for (const [folder, allowed] of [
      ["src", manifest.dependencies],
      ["test", [...manifest.dependencies, ...manifest.devDependencies]],
    ] as const) {
      for (const file of sourceFiles(join(root, manifest.dir, folder))) {
        for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
          const name = /^(@chorus\/[a-z0-9-]+)/.exec(specifier)?.[1];
          if (name === undefined || name === manifest.name || allowed.includes(name)) continue;
          undeclared.add(`${relative(root, file)} → ${specifier}`);
        }
      }
    }
    expect([...undeclared]).toEqual([]);
  });
});

describe("no package reaches into another package's files", () => {
  const scanned = [
    ...packageDirs.flatMap((dir) => [join(dir, "src"), join(dir, "test")]).filter((dir) => !dir.startsWith("bench")),
    join("bench", "src"),
  ];

  it.each(scanned)("%s imports other packages through their exports only", (folder) => {
    const own = resolve(
      root,
      folder
        .split(sep)
        .slice(0, folder.startsWith("bench") ? 1 : 2)
        .join(sep),
    );
    const reaching: string[] = [];
    for (const file of sourceFiles(join(root, folder))) {
      for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
        // A package name with a path that is not one of its exports (`@chorus/gateway/src/…`, `…/dist/…`).
        if (/^@chorus\/[a-z0-9-]+\/(src|dist|test)(\/|$)/.test(specifier))
          reaching.push(`${relative(root, file)} → ${specifier}`);
        const isPath = specifier.startsWith(".") || specifier.startsWith("/");
        if (!isPath) continue;
        const target = resolve(dirname(file), specifier);
        const ownOrOutside = target.startsWith(own + sep) || !target.startsWith(root + sep);
        if (!ownOrOutside) reaching.push(`${relative(root, file)} → ${specifier}`);
      }
    }
    expect(reaching).toEqual([]);
  });

  it("the scan sees the adapters' imports (it is not looking at nothing)", () => {
    const files = sourceFiles(join(root, "packages", "channel-telegram", "src"));
    const specifiers = files.flatMap((file) => specifiersOf(readFileSync(file, "utf8")));
    expect(specifiers).toContain("@chorus/channel");
    expect(specifiers).toContain("grammy");
  });
});
