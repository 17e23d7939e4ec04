import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type FakeLlmServer, startFakeAnthropic, startFakeOpenAI } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 17's promise to a developer who wants a Telegram bot: packing the packages and installing them outside the
// workspace brings grammy and neither discord.js nor @slack/bolt. Issue 31's: a program on one model provider installs
// only that provider's SDK (the SDKs are optional peer dependencies of @chorus/providers; this one uses Anthropic). Needs the packages built (`npm test` builds first)
// and the npm registry for third-party dependencies (npm's cache makes a second run quick).
const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const INSTALL_TIMEOUT_MS = 180_000;

/** What a Telegram-only program installs: the adapter, the SQLite store, the gateway and what they stand on. */
// Long-term memory is an extension of its own (@chorus/extension-memory): a program without it never gets @chorus/memory.
const PACKED = ["core", "providers", "tools", "channel", "store", "gateway", "channel-telegram", "store-sqlite"];

let folder = "";
let tarballs: string[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "chorus-telegram-only-"));
  const packs = join(folder, "packs");
  mkdirSync(packs);
  for (const dir of PACKED) {
    const pkg = join(root, "packages", dir);
    if (!existsSync(join(pkg, "dist", "index.js"))) throw new Error(`packages/${dir} is not built: run pnpm build`);
    await run("pnpm", ["pack", "--pack-destination", packs], { cwd: pkg, timeout: 60_000 });
  }
  tarballs = readdirSync(packs).map((file) => join(packs, file));
  const app = join(folder, "app");
  mkdirSync(app);
  const dependencies: Record<string, string> = Object.fromEntries(
    tarballs.map((file) => {
      const name = /^chorus-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file.split("/").at(-1) ?? "")?.[1] ?? file;
      return [`@chorus/${name}`, `file:${file}`];
    }),
  );
  // The one model SDK this program uses, as its README tells it to add (the version @chorus/providers asks for).
  const providers = JSON.parse(readFileSync(join(root, "packages", "providers", "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
  };
  dependencies["@anthropic-ai/sdk"] = providers.peerDependencies["@anthropic-ai/sdk"] ?? "";
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "telegram-only", private: true, type: "module", dependencies }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: app,
    timeout: INSTALL_TIMEOUT_MS,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}, INSTALL_TIMEOUT_MS + 60_000);

let anthropic: FakeLlmServer | undefined;
let openai: FakeLlmServer | undefined;

// Removing an installed node_modules takes seconds on a loaded machine.
afterAll(async () => {
  await anthropic?.close();
  await openai?.close();
  if (folder !== "") rmSync(folder, { recursive: true, force: true });
}, 60_000);

/** Bytes under `dir`, files only (what the install put on disk). */
async function bytesUnder(dir: string): Promise<number> {
  const { stdout } = await run("du", ["-sb", dir]);
  return Number(stdout.split("\t")[0]);
}

describe("a Telegram-only program installed from the packed packages, outside the workspace", () => {
  it("packs every package it needs, with workspace:* rewritten to real versions", async () => {
    expect(tarballs.map((file) => file.split("/").at(-1))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^chorus-gateway-/),
        expect.stringMatching(/^chorus-channel-telegram-/),
        expect.stringMatching(/^chorus-store-sqlite-/),
      ]),
    );
    const { stdout } = await run("tar", [
      "-xOf",
      tarballs.find((f) => f.includes("channel-telegram")) ?? "",
      "package/package.json",
    ]);
    const manifest = JSON.parse(stdout) as { dependencies: Record<string, string> };
    // An adapter needs the channel contract, not the gateway.
    expect(manifest.dependencies["@chorus/channel"]).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.dependencies["@chorus/gateway"]).toBeUndefined();
    expect(JSON.stringify(manifest)).not.toContain("workspace:");
  });

  it("has grammy in node_modules, and neither discord.js nor @slack/bolt", () => {
    const modules = join(folder, "app", "node_modules");
    expect(existsSync(join(modules, "grammy", "package.json"))).toBe(true);
    expect(existsSync(join(modules, "@grammyjs", "runner", "package.json"))).toBe(true);
    expect(existsSync(join(modules, "discord.js"))).toBe(false);
    expect(existsSync(join(modules, "@discordjs"))).toBe(false);
    expect(existsSync(join(modules, "@slack", "bolt"))).toBe(false);
  });

  it("has no long-term memory package: the gateway does not depend on it", () => {
    const modules = join(folder, "app", "node_modules");
    expect(existsSync(join(modules, "@chorus", "gateway", "package.json"))).toBe(true);
    expect(existsSync(join(modules, "@chorus", "memory"))).toBe(false);
  });

  it("has the Anthropic SDK it asked for and not openai, calls a model through it and Chat Completions without the openai SDK", async () => {
    const modules = join(folder, "app", "node_modules");
    expect(existsSync(join(modules, "@anthropic-ai", "sdk", "package.json"))).toBe(true);
    expect(existsSync(join(modules, "openai"))).toBe(false);
    console.log(`Telegram + Anthropic program: node_modules ${((await bytesUnder(modules)) / 1e6).toFixed(1)} MB`);

    anthropic = await startFakeAnthropic();
    anthropic.enqueue([{ type: "text", text: "hello from claude" }]);
    openai = await startFakeOpenAI();
    openai.enqueue([{ type: "text", text: "hello from gpt" }]);
    const script = join(folder, "app", "call-models.mjs");
    writeFileSync(
      script,
      [
        'import { anthropicStreamFn, builtinModels, openAIStreamFn } from "@chorus/providers";',
        "const ask = async (streamFn, id) => {",
        "  const model = builtinModels.find((m) => m.id === id);",
        '  const stream = streamFn(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] });',
        "  for await (const _ of stream);",
        "  const message = await stream.result();",
        '  return message.stopReason === "error" ? { error: message.errorMessage } : { text: message.content.map((c) => c.text).join("") };',
        "};",
        `const claude = await ask(anthropicStreamFn({ apiKey: "sk-ant-test", baseUrl: ${JSON.stringify(anthropic.url)} }), "claude-sonnet-4-6");`,
        `const gpt = await ask(openAIStreamFn({ apiKey: "sk-test", baseUrl: ${JSON.stringify(openai.url)} }), "gpt-4.1");`,
        'const responses = await ask(openAIStreamFn({ apiKey: "sk-test", baseUrl: "http://127.0.0.1:9" }), "gpt-5");',
        "console.log(JSON.stringify({ claude, gpt, responses }));",
      ].join("\n"),
    );
    const { stdout } = await run(process.execPath, [script], { cwd: join(folder, "app"), timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      claude: { text: "hello from claude" },
      // Chat Completions speaks HTTP itself: no SDK to install.
      gpt: { text: "hello from gpt" },
      // The Responses API needs the openai SDK, which was not installed: it says so, and how (no request is made).
      responses: { error: expect.stringContaining("npm install openai") },
    });
  }, 60_000);

  it("runs an ESM program that builds a Gateway with a Telegram channel and a SQLite store, on the toolchain's Node", async () => {
    const script = join(folder, "app", "main.mjs");
    writeFileSync(
      script,
      [
        'import { ChannelOptionsError, Gateway } from "@chorus/gateway";',
        'import { createTelegramChannel } from "@chorus/channel-telegram";',
        'import { SqliteSessionStore } from "@chorus/store-sqlite";',
        'import { ModelRegistry } from "@chorus/providers";',
        'const telegram = createTelegramChannel({ accountId: "tg", token: "123:abc" });',
        'const store = SqliteSessionStore.open({ path: "chorus.db" });',
        "const gateway = new Gateway({",
        '  config: { agents: [{ id: "main", model: "claude-sonnet-4-6" }], channels: [{ channel: "telegram", dmPolicy: "open" }] },',
        "  store,",
        "  channels: [telegram],",
        "  models: new ModelRegistry(),",
        "});",
        'let refused = "";',
        'try { createTelegramChannel({ accountId: "tg", token: "" }); } catch (e) { refused = e instanceof ChannelOptionsError ? e.message : "?"; }',
        'const session = await store.getSession("main:tg:telegram:dm:1");',
        "await store.close();",
        "console.log(JSON.stringify({ id: telegram.id, markup: telegram.capabilities.markup, gateway: typeof gateway.start, refused, session: session ?? null, node: process.versions.node }));",
      ].join("\n"),
    );
    const { stdout } = await run(process.execPath, [script], { cwd: join(folder, "app"), timeout: 30_000 });
    const printed = JSON.parse(stdout) as { node: string };
    // The toolchain's Node (24 here); the packages promise Node 22 and later.
    expect(printed.node).toBe(process.versions.node);
    expect(Number(printed.node.split(".")[0])).toBeGreaterThanOrEqual(22);
    expect(printed).toEqual({
      node: process.versions.node,
      id: "telegram",
      markup: "telegram-html",
      gateway: "function",
      refused: 'telegram channel: option "token" is required',
      session: null,
    });
  }, 60_000);
});
