import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve, sep } from "node:path";
import { defineConfig } from "vitest/config";

// One root config; every workspace package with a test/ folder is a project.
// Workspace imports resolve to each package's src/, so tests never need a build.
const root = import.meta.dirname;
const packageDirs = ["packages", "apps"].flatMap((group) =>
  existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(group, name)) : [],
);
packageDirs.push("bench");

const packages = packageDirs
  .filter((dir) => existsSync(join(root, dir, "package.json")))
  .map((dir) => ({ dir, name: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")).name as string }));

// "@chorus/x" → packages/x/src/index.ts; "@chorus/x/sub" (an exports subpath) → packages/x/src/sub/index.ts.
const alias = packages.flatMap(({ dir, name }) => {
  const exportsMap = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")).exports ?? {};
  return Object.keys(exportsMap).map((key) => {
    const sub = key === "." ? "" : key.slice(2);
    return {
      find: new RegExp(`^${name}${sub ? `/${sub}` : ""}$`),
      replacement: resolve(root, dir, "src", sub, "index.ts"),
    };
  });
});

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".test.ts") && !file.includes("node_modules"))
    .map((file) => `test/${file.split(sep).join("/")}`)
    .sort();
}

// A file that changes what is global to its process (OpenTelemetry's registered providers, mocked modules, the
// environment, the working directory, the clock) runs in a fresh module graph of its own. Every other file of a package
// shares its worker's modules with the files before it: importing the package graph again for each file cost more than
// the tests themselves (the gateway's 100 files: 89 s → 37 s on 2 cores).
const GLOBAL_STATE =
  /captureTelemetry|@opentelemetry|vi\.(mock|doMock|stubEnv|stubGlobal)\(|process\.env\.[A-Za-z_]+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env|process\.chdir|process\.umask|useFakeTimers|globalThis\.[A-Za-z_]+ *=[^=]/;

// The platform adapters' and the fakes' own tests drive discord.js, Bolt and grammy against fakes they close: a client a
// test stopped may still settle a call afterwards, which in a shared worker would surface in whichever file runs next.
// They are small packages, cheap to load per file. (A leftover of that kind found this way was a real defect: Bolt's
// eager auth.test rejecting unhandled when Slack was unreachable at start — fixed in @chorus/channel-slack.)
const ISOLATED_PACKAGES = /^packages\/(channel-[a-z]+|testkit)$/;

function changesGlobalState(dir: string, file: string): boolean {
  return ISOLATED_PACKAGES.test(dir) || GLOBAL_STATE.test(readFileSync(join(root, dir, file), "utf8"));
}

/** A package's test projects: its files that share a worker's modules, and those that each need their own. */
function packageProjects(dir: string, name: string) {
  const files = testFiles(join(root, dir, "test"));
  const isolated = files.filter((file) => changesGlobalState(dir, file));
  const shared = files.filter((file) => !isolated.includes(file));
  const common = { root: join(root, dir), testTimeout: 20_000, hookTimeout: 20_000 };
  return [
    ...(shared.length > 0 ? [{ extends: true, test: { ...common, name, include: shared, isolate: false } }] : []),
    ...(isolated.length > 0
      ? [{ extends: true, test: { ...common, name: `${name} (isolated)`, include: isolated, isolate: true } }]
      : []),
  ];
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Most files wait on child processes,
    // sockets and timers, so two workers there halve the wall time (477 s → 284 s measured) without starving either.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: "workspace", root, include: ["test/**/*.test.ts"] },
      },
      ...packages.flatMap(({ dir, name }) => packageProjects(dir, name)),
    ],
  },
});
