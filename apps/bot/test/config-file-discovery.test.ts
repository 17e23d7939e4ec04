import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findConfigFile } from "../src/config/find-config-file.js";
import { DEFAULTS_SOURCE, resolveBotConfig } from "../src/config/resolve-bot-config.js";

let root: string;
let botDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "chorus-find-"));
  botDir = join(root, "apps", "bot");
  await mkdir(botDir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("finding the config file", () => {
  it("uses --config, then CHORUS_CONFIG, then the current folder, then the folder npm start ran in", async () => {
    expect(findConfigFile(undefined, botDir, {})).toBeUndefined();
    await writeFile(join(root, "chorus.config.yaml"), "agents: [{ id: a, model: demo }]\n");
    // `npm start` at the root runs the bot in apps/bot with INIT_CWD set to the root.
    expect(findConfigFile(undefined, botDir, { INIT_CWD: root })).toBe(join(root, "chorus.config.yaml"));
    await writeFile(join(botDir, "chorus.config.json"), '{"agents":[{"id":"b","model":"demo"}]}');
    expect(findConfigFile(undefined, botDir, { INIT_CWD: root })).toBe(join(botDir, "chorus.config.json"));
    expect(findConfigFile(undefined, botDir, { CHORUS_CONFIG: "../x.yaml" })).toBe(join(root, "apps", "x.yaml"));
    expect(findConfigFile("/etc/chorus.yaml", botDir, { CHORUS_CONFIG: "../x.yaml" })).toBe("/etc/chorus.yaml");
  });

  it("runs on defaults from the environment when there is no file", async () => {
    const resolved = await resolveBotConfig({ configPath: undefined, cwd: botDir, env: {} });
    expect(resolved.source).toBe(DEFAULTS_SOURCE);
    expect(resolved.file).toBeUndefined();
    expect(resolved.config.agents[0]?.model).toBe("demo");
    expect(resolved.modelExplanation).toContain("offline demo");
  });
});
