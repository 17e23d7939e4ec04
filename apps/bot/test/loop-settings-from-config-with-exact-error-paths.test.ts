import { parseGatewayConfig } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { buildModelRegistry, resolveModelRef } from "../src/models/model-reference.js";
import { agentLoopOf } from "../src/runtime/agent-loop-of.js";

function parsed(agent: Record<string, unknown>) {
  const result = parseBotConfig({ agents: [{ id: "main", model: "anthropic/claude-sonnet-4-6", ...agent }] });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

function loopOf(agent: Record<string, unknown>) {
  const config = parsed(agent);
  const registry = buildModelRegistry(config);
  const main = config.agents[0];
  if (main === undefined) throw new Error("no agent");
  return agentLoopOf(main, (ref) => resolveModelRef(ref, registry, config));
}

function issuesOf(agents: Record<string, unknown>[]) {
  const result = parseBotConfig({ agents });
  return result.ok ? [] : result.issues;
}

describe("loop settings per agent in chorus.config.yaml (seed 003, 004)", () => {
  it("sets nothing by default: the loop's own defaults apply, compaction at level full", () => {
    const config = parsed({});
    expect(config.agents[0]?.fallbackModels).toEqual([]);
    expect(config.agents[0]?.compaction.level).toBe("full");
    expect(loopOf({})).toEqual({});
  });

  it("resolves fallback models to models; overload falls back at once and a stall falls back too", () => {
    const loop = loopOf({
      fallbackModels: ["claude-haiku-4-5", "openai/gpt-5-mini"],
      maxTurns: 12,
      stallTimeoutSecs: 45,
    });
    expect(loop.fallbackModels?.map((model) => `${model.provider}/${model.id}`)).toEqual([
      "anthropic/claude-haiku-4-5",
      "openai/gpt-5-mini",
    ]);
    expect(loop).toMatchObject({
      fallbackImmediately: true,
      stallRecovery: "fallback",
      maxTurns: 12,
      stallTimeoutMs: 45_000,
    });
    expect(loopOf({ fallbackModels: ["claude-haiku-4-5"], stallRecovery: "abort" }).stallRecovery).toBe("abort");
    expect(loopOf({ stallTimeoutSecs: 10 })).toEqual({ stallTimeoutMs: 10_000 });
  });

  it("maps each compaction level onto the loop's tiers, and full's model and thresholds onto the summary", () => {
    expect(loopOf({ compaction: { level: "off" } }).context).toEqual({
      microCompaction: { enabled: false },
      compaction: { enabled: false },
    });
    expect(loopOf({ compaction: { level: "safe" } }).context).toEqual({ compaction: { enabled: false } });
    const full = loopOf({
      compaction: { level: "full", model: "claude-haiku-4-5", reserveTokens: 30_000, keepRecentTokens: 8_000 },
    }).context;
    expect(full?.reserve).toBe(30_000);
    expect(full?.compaction?.keepRecentTokens).toBe(8_000);
    expect(full?.compaction?.model?.id).toBe("claude-haiku-4-5");
  });

  it("keeps the loop keys to the bot: the gateway's agent config validates without them", () => {
    const config = parsed({
      fallbackModels: ["claude-haiku-4-5"],
      maxTurns: 5,
      stallRecovery: "retry",
      compaction: { level: "safe", statusLine: false },
    });
    const gateway = parseGatewayConfig(gatewayConfigOf(config));
    expect(gateway.ok).toBe(true);
    const agent = gatewayConfigOf(config).agents[0];
    expect(agent?.compaction).toEqual({ pruning: [], statusLine: false });
    expect(agent).not.toHaveProperty("fallbackModels");
    expect(agent).not.toHaveProperty("maxTurns");
  });

  it("names the exact path of an unknown, repeated or self-referencing fallback model", () => {
    const issues = issuesOf([
      { id: "a", model: "demo" },
      {
        id: "b",
        model: "claude-sonnet-4-6",
        fallbackModels: ["claude-haiku-4-5", "gpt-99-ultra", "anthropic/claude-haiku-4-5", "claude-sonnet-4-6"],
      },
    ]);
    expect(issues).toEqual([
      { path: "agents[1].fallbackModels[1]", message: expect.stringContaining('unknown model "gpt-99-ultra"') },
      {
        path: "agents[1].fallbackModels[2]",
        message: expect.stringContaining("listed twice (also fallbackModels[0])"),
      },
      { path: "agents[1].fallbackModels[3]", message: expect.stringContaining("the agent's own model") },
    ]);
  });

  it("refuses a fallback stall recovery with nothing to fall back to, and values out of range", () => {
    expect(issuesOf([{ id: "a", model: "demo", stallRecovery: "fallback" }])).toEqual([
      { path: "agents[0].stallRecovery", message: expect.stringContaining("needs fallbackModels") },
    ]);
    expect(issuesOf([{ id: "a", model: "demo", maxTurns: 0 }]).map((issue) => issue.path)).toEqual([
      "agents[0].maxTurns",
    ]);
    expect(issuesOf([{ id: "a", model: "demo", stallTimeoutSecs: 0.5 }]).map((issue) => issue.path)).toEqual([
      "agents[0].stallTimeoutSecs",
    ]);
    expect(issuesOf([{ id: "a", model: "demo", stallRecovery: "pray" }]).map((issue) => issue.path)).toEqual([
      "agents[0].stallRecovery",
    ]);
  });

  it("refuses an unknown level, an unknown compaction model, summary settings a level never uses, a reserve past the window", () => {
    expect(issuesOf([{ id: "a", model: "demo", compaction: { level: "aggressive" } }]).map((i) => i.path)).toEqual([
      "agents[0].compaction.level",
    ]);
    expect(issuesOf([{ id: "a", model: "demo", compaction: { model: "gpt-99-ultra" } }])).toEqual([
      { path: "agents[0].compaction.model", message: expect.stringContaining('unknown model "gpt-99-ultra"') },
    ]);
    expect(issuesOf([{ id: "a", model: "demo", compaction: { level: "safe", keepRecentTokens: 5000 } }])).toEqual([
      {
        path: "agents[0].compaction.keepRecentTokens",
        message: expect.stringContaining("only used when compaction.level is full"),
      },
    ]);
    expect(
      issuesOf([
        {
          id: "a",
          model: "claude-sonnet-4-6",
          fallbackModels: ["gpt-4o-mini"],
          compaction: { reserveTokens: 150_000 },
        },
      ]),
    ).toEqual([
      {
        path: "agents[0].compaction.reserveTokens",
        message: "150000 leaves no room in gpt-4o-mini's 128000-token context window",
      },
    ]);
  });
});
