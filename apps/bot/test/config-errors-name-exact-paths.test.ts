import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BotConfigError } from "../src/config/bot-config-error.js";
import { loadBotConfigFile, parseBotConfig } from "../src/config/load-bot-config.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadYaml(text: string, env: NodeJS.ProcessEnv = {}): Promise<BotConfigError> {
  const file = join(dir, "chorus.config.yaml");
  await writeFile(file, text);
  const error = await loadBotConfigFile(file, env).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(BotConfigError);
  return error as BotConfigError;
}

describe("config validation", () => {
  it("names the exact path and what was expected", async () => {
    const error = await loadYaml(`
agents:
  - id: helper
    model: demo
    subagents: { maxSpawnDepth: 9 }
channels:
  telegram:
    - token: "123:abc"
      mode: carrier-pigeon
  webchat:
    - port: 99999
`);
    const byPath = Object.fromEntries(error.issues.map((issue) => [issue.path, issue.message]));
    expect(byPath["agents[0].subagents.maxSpawnDepth"]).toMatch(/<=5/);
    expect(byPath["channels.telegram[0].mode"]).toMatch(/"polling"\|"webhook"/);
    expect(byPath["channels.webchat[0].port"]).toMatch(/65535/);
    expect(error.message).toContain(join(dir, "chorus.config.yaml"));
  });

  it("reports unknown fields by name, which catches typos", async () => {
    const error = await loadYaml("agents:\n  - id: helper\n    model: demo\nchanels: {}\n");
    expect(error.issues).toEqual([
      expect.objectContaining({ path: "(root)", message: expect.stringContaining('"chanels"') }),
    ]);
  });

  it("checks references between sections: bindings, models and duplicate accounts", () => {
    const result = parseBotConfig({
      agents: [{ id: "helper", model: "gpt-99-ultra" }],
      bindings: [{ agentId: "nobody", match: { channel: "telegram" } }],
      channels: { telegram: [{ token: "a:b" }, { token: "c:d" }] },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const paths = result.issues.map((issue) => issue.path);
    expect(paths).toContain("agents[0].model");
    expect(paths).toContain("bindings[0].agentId");
    expect(paths).toContain("channels.telegram[1].accountId");
    const model = result.issues.find((issue) => issue.path === "agents[0].model");
    expect(model?.message).toContain('unknown model "gpt-99-ultra"');
  });

  it("needs appToken or signingSecret for Slack", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo" }],
      channels: { slack: [{ botToken: "xoxb-1" }] },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]).toMatchObject({ path: "channels.slack[0].appToken" });
  });

  it("takes Discord shards as a count or auto, and names a bad one", () => {
    const accepted = parseBotConfig({
      agents: [{ id: "a", model: "demo" }],
      channels: {
        discord: [
          { accountId: "one", token: "t1", shards: "auto" },
          { accountId: "two", token: "t2", shards: 2 },
        ],
      },
    });
    expect(accepted.ok).toBe(true);
    const refused = parseBotConfig({
      agents: [{ id: "a", model: "demo" }],
      channels: { discord: [{ token: "t", shards: 0 }] },
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.issues[0]).toMatchObject({ path: "channels.discord[0].shards" });
  });

  it("reports YAML syntax errors with their line", async () => {
    const error = await loadYaml("agents:\n  - id: helper\n   model: [demo\n");
    expect(error.issues[0]?.path).toMatch(/^line \d+, column \d+$/);
    expect(error.issues[0]?.message).toMatch(/not valid YAML/);
  });

  it("reads JSON files too, and says when a file is missing", async () => {
    const file = join(dir, "chorus.config.json");
    await writeFile(file, JSON.stringify({ agents: [{ id: "helper", model: "demo" }] }));
    const loaded = await loadBotConfigFile(file, {});
    expect(loaded.config.agents[0]?.id).toBe("helper");
    expect(loaded.config.channels.webchat).toEqual([]);
    const missing = await loadBotConfigFile(join(dir, "nope.yaml"), {}).catch((error: unknown) => error);
    expect((missing as BotConfigError).issues[0]?.message).toBe("file not found");
  });

  it("never echoes a long value that might be a secret", () => {
    const token = "123456789:AAH-very-long-secret-token-value-that-must-not-leak";
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo" }],
      channels: { telegram: [{ token, mode: token }] },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(JSON.stringify(result.issues)).not.toContain(token);
  });
});
