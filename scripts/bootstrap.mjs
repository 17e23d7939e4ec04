#!/usr/bin/env node
// Sets up what the workspace needs, then runs a root pnpm script with it.
// Runs on any Node >= 18 with npm (the machines have Node 20 only): it brings
// Node 24 and the pinned pnpm from the npm registry into .toolchain/ when missing.
// Usage: node scripts/bootstrap.mjs <root-script> [args...]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./ensure-chromium.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const toolchain = join(root, ".toolchain");
const MIN_NODE_MAJOR = 22;
const NODE_PACKAGE_MAJOR = 24;

function say(line) {
  process.stderr.write(`[chorus setup] ${line}\n`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function capture(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", env });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function npmInstallInto(dir, spec) {
  mkdirSync(dir, { recursive: true });
  const status = run(
    "npm",
    ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--loglevel=error", "--no-audit", "--no-fund", spec],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (status !== 0) throw new Error(`npm install ${spec} failed (exit ${status})`);
}

/** Returns the directory holding a Node >= 22 binary: the running one, or one from .toolchain/. */
function ensureNode() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= MIN_NODE_MAJOR) return dirname(process.execPath);
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(toolchain, "node");
  const bin = join(dir, "node_modules", pkg, "bin");
  const existing = existsSync(join(bin, "node")) ? capture(join(bin, "node"), ["--version"]) : undefined;
  if (existing?.startsWith(`v${NODE_PACKAGE_MAJOR}.`)) return bin;
  npmInstallInto(dir, `${pkg}@${NODE_PACKAGE_MAJOR}`);
  const installed = capture(join(bin, "node"), ["--version"]);
  if (!installed) throw new Error(`Node ${NODE_PACKAGE_MAJOR} from ${pkg} did not run`);
  say(
    `Node ${process.versions.node} is older than ${MIN_NODE_MAJOR}: installed Node ${installed} from npm (${pkg}) into .toolchain/node`,
  );
  return bin;
}

/** Returns the argv prefix that runs the pinned pnpm with the given node. */
function ensurePnpm(nodeBin, env) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const want = String(manifest.packageManager ?? "")
    .replace(/^pnpm@/, "")
    .split("+")[0];
  if (!want) throw new Error('package.json has no "packageManager": "pnpm@<version>"');
  const onPath = capture("pnpm", ["--version"], env);
  if (onPath === want) return ["pnpm"];
  const dir = join(toolchain, "pnpm");
  const cli = join(dir, "node_modules", "pnpm", "bin", "pnpm.cjs");
  const node = join(nodeBin, "node");
  if (capture(node, [cli, "--version"], env) !== want) {
    npmInstallInto(dir, `pnpm@${want}`);
    say(`installed pnpm ${want} from npm into .toolchain/pnpm`);
  }
  return [node, cli];
}

function hashInstallInputs() {
  const h = createHash("sha256");
  const files = ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"];
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) files.push(join(group, name, "package.json"));
  }
  files.push(join("bench", "package.json"));
  for (const f of files) {
    const p = join(root, f);
    h.update(f);
    h.update(existsSync(p) ? readFileSync(p) : "-");
  }
  h.update(process.versions.node);
  return h.digest("hex");
}

function ensureInstall(pnpm, env) {
  const stamp = join(toolchain, "install.stamp");
  const digest = hashInstallInputs();
  const upToDate =
    existsSync(join(root, "node_modules", ".modules.yaml")) &&
    existsSync(stamp) &&
    readFileSync(stamp, "utf8") === digest;
  if (upToDate) return;
  const frozen = existsSync(join(root, "pnpm-lock.yaml")) ? ["--frozen-lockfile"] : [];
  const [cmd, ...pre] = pnpm;
  const status = run(cmd, [...pre, "install", ...frozen, "--reporter=append-only"], { env });
  if (status !== 0) throw new Error(`pnpm install failed (exit ${status})`);
  mkdirSync(toolchain, { recursive: true });
  writeFileSync(stamp, digest);
}

function main() {
  const [script, ...rest] = process.argv.slice(2);
  if (!script) throw new Error("usage: node scripts/bootstrap.mjs <root-script> [args...]");
  const nodeBin = ensureNode();
  const pnpmHome = join(toolchain, "pnpm", "node_modules", ".bin");
  const env = {
    ...process.env,
    PATH: [nodeBin, pnpmHome, process.env.PATH ?? ""].join(":"),
    // Keep pnpm from asking questions or checking for updates in CI-like shells.
    npm_config_update_notifier: "false",
    TURBO_TELEMETRY_DISABLED: "1",
  };
  const pnpm = ensurePnpm(nodeBin, env);
  ensureInstall(pnpm, env);
  // The browser tests need Debian's chromium; installed here, once, never from a test file.
  if (script === "run:test") ensureChromium(say);
  const [cmd, ...pre] = pnpm;
  const status = run(cmd, [...pre, "run", "--silent", script, ...rest], { env });
  process.exit(status);
}

try {
  main();
} catch (err) {
  say(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
