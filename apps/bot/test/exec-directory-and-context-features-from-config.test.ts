import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseGatewayConfig } from "@chorus/gateway";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { agentSetupsOf } from "../src/runtime/agent-setup.js";
import { agentWorkspacesOf, prepareAgentWorkspaces } from "../src/runtime/agent-workspaces.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-features-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function config(agents: unknown[]) {
  const result = parseBotConfig({ dataDir: "./data", agents });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

describe("exec directory, TACO and context restoration from chorus.config.yaml", () => {
  it("set_working_directory only where exec.changeDirectory is on; every agent gets its execution context", async () => {
    const cfg = config([
      { id: "a", model: "demo", exec: { changeDirectory: true, env: { STAGE: "prod" } } },
      { id: "b", model: "demo" },
    ]);
    const workspaces = await agentWorkspacesOf(cfg, dir);
    await prepareAgentWorkspaces(workspaces);
    const setups = agentSetupsOf(cfg, workspaces);
    const names = (id: string) => (setups[id]?.tools ?? []).map((tool) => tool.name);
    expect(names("a")).toContain("set_working_directory");
    expect(names("b")).not.toContain("set_working_directory");
    const run = { runId: "r", depth: 0, sessionId: "s" };
    expect(setups.a?.executionContext?.(run)).toEqual({ cwd: ".", env: { STAGE: "prod" } });
    expect(setups.b?.executionContext?.(run)).toEqual({ cwd: ".", env: {} });
    expect(await setups.b?.recentFiles?.(run, 5)).toEqual([]);
  });

  it("passes toolOutputCompression and contextRestoration to the gateway, and keeps exec to the bot", () => {
    const cfg = config([
      {
        id: "a",
        model: "demo",
        exec: { changeDirectory: true },
        toolOutputCompression: { enabled: true, model: "demo", thresholdTokens: 4000 },
        contextRestoration: { maxFiles: 3 },
      },
    ]);
    const parsed = parseGatewayConfig(gatewayConfigOf(cfg));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed));
    const agent = parsed.config.agents[0]!;
    expect(agent.toolOutputCompression).toMatchObject({ enabled: true, model: "demo", thresholdTokens: 4000 });
    expect(agent.contextRestoration).toMatchObject({ enabled: true, maxFiles: 3, perFileTokens: 5000 });
    expect("exec" in agent).toBe(false);
  });

  it("rejects a bad environment variable name", () => {
    const result = parseBotConfig({
      dataDir: "./data",
      agents: [{ id: "a", model: "demo", exec: { env: { "BAD-NAME": "1" } } }],
    });
    expect(result.ok).toBe(false);
  });
});
