import { describe, expect, it } from "vitest";
import { GatewayConfigError, loadGatewayConfig, parseGatewayConfig, resolveChannelPolicy } from "../src/index.js";

const agent = { id: "helper", model: "anthropic/claude-sonnet" };

function issuesOf(input: unknown): { path: string; message: string }[] {
  const result = parseGatewayConfig(input);
  if (result.ok) throw new Error("expected the config to be rejected");
  return result.issues;
}

describe("gateway configuration", () => {
  it("applies the documented defaults", () => {
    const config = loadGatewayConfig({ agents: [agent], channels: [{ channel: "discord", groups: { g1: {} } }] });
    expect(config.agents[0]?.subagents).toEqual({ maxSpawnDepth: 1, maxChildrenPerRun: 5, maxConcurrent: 8 });
    expect(config.agents[0]?.maxOutputTokens).toBe(8192);
    expect(config.bindings).toEqual([]);
    expect(config.channels[0]?.groups?.g1).toEqual({ requireMention: true, trust: "trusted", membersMay: [] });
    expect(resolveChannelPolicy(config, "discord", "main")).toMatchObject({
      dmPolicy: "pairing",
      groupPolicy: "allowlist",
      allowBots: false,
      queueMode: "steer",
      admins: [],
    });
  });

  it("names the exact path and what was expected", () => {
    const issues = issuesOf({
      agents: [agent, { id: "Coder", model: "m", subagents: { maxSpawnDepth: 7 } }],
      channels: [{ channel: "telegram", dmPolicy: "whoever", groups: { "-100:5": { trust: "root" } } }],
    });
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
    expect(byPath["agents[1].id"]).toMatch(/lower-case/);
    expect(byPath["agents[1].subagents.maxSpawnDepth"]).toMatch(/<=5 \(got 7\)/);
    expect(byPath["channels[0].dmPolicy"]).toMatch(/pairing/);
    expect(byPath['channels[0].groups["-100:5"].trust']).toMatch(/trusted/);
  });

  it("refuses an output cap too small to answer with, or not a whole number, naming the agent", () => {
    const issues = issuesOf({
      agents: [
        { ...agent, maxOutputTokens: 10 },
        { id: "coder", model: "m", maxOutputTokens: 1.5 },
      ],
      channels: [],
    });
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
    expect(byPath["agents[0].maxOutputTokens"]).toBe(
      "maxOutputTokens must be at least 256: a smaller cap cuts most answers short (got 10)",
    );
    expect(byPath["agents[1].maxOutputTokens"]).toBe("maxOutputTokens must be a whole number of tokens (got 1.5)");
  });

  it("does not echo long strings, which could be secrets pasted in the wrong place", () => {
    const token = "xoxb-1234567890-abcdefghijklmnopqrstuvwxyz-0987654321";
    const issues = issuesOf({ agents: [agent], channels: [{ channel: "slack", dmPolicy: token }] });
    expect(issues[0]?.path).toBe("channels[0].dmPolicy");
    expect(JSON.stringify(issues)).not.toContain(token);
  });

  it("throws a GatewayConfigError whose message lists every problem", () => {
    const error = (() => {
      try {
        loadGatewayConfig({ agents: [], extra: 1 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(GatewayConfigError);
    expect((error as GatewayConfigError).message).toMatch(/agents: expected at least one agent/);
    expect((error as GatewayConfigError).message).toMatch(/extra/);
  });

  it("reports references to unknown agents and duplicates", () => {
    const issues = issuesOf({
      agents: [agent, agent],
      defaultAgent: "nobody",
      bindings: [{ agentId: "ghost", match: { channel: "slack" } }],
      channels: [{ channel: "slack" }, { channel: "slack" }],
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: "agents[1].id", message: expect.stringMatching(/duplicate agent id "helper"/) },
        { path: "defaultAgent", message: expect.stringMatching(/got "nobody"/) },
        { path: "bindings[0].agentId", message: expect.stringMatching(/got "ghost"/) },
        { path: "channels[1]", message: expect.stringMatching(/duplicate policy for channel "slack"/) },
      ]),
    );
  });

  it("reports two equally specific bindings that can match the same message, naming both", () => {
    const issues = issuesOf({
      agents: [agent, { id: "coder", model: "m" }],
      bindings: [
        { agentId: "helper", match: { channel: "discord", guild: "G1" } },
        { agentId: "coder", match: { channel: "discord", peer: "U1" } },
        { agentId: "coder", match: { accountId: "main", guild: "G1" } },
      ],
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe("bindings[2]");
    expect(issues[0]?.message).toMatch(/ambiguous with bindings\[0\]/);
    expect(issues[0]?.message).toMatch(/channel: discord, guild: G1/);
    expect(issues[0]?.message).toMatch(/accountId: main, guild: G1/);
  });

  it("accepts equally specific bindings that can never match the same message", () => {
    const result = parseGatewayConfig({
      agents: [agent, { id: "coder", model: "m" }],
      bindings: [
        { agentId: "helper", match: { channel: "discord", peer: "U1" } },
        { agentId: "coder", match: { channel: "discord", peer: "U2" } },
        { agentId: "coder", match: { channel: "slack", peer: "U1" } },
      ],
    });
    expect(result.ok).toBe(true);
  });

  it("rejects bindings that can never match or that set both guild and team", () => {
    const issues = issuesOf({
      agents: [agent],
      bindings: [
        { agentId: "helper", match: {} },
        { agentId: "helper", match: { peer: "a", group: "b" } },
        { agentId: "helper", match: { guild: "a", team: "b" } },
      ],
    });
    expect(issues.map((issue) => issue.path)).toEqual(["bindings[0].match", "bindings[1].match", "bindings[2].match"]);
  });

  it("resolves an account's policy over the channel-wide one, field by field", () => {
    const config = loadGatewayConfig({
      agents: [agent],
      channels: [
        { channel: "discord", admins: ["owner"], dmPolicy: "allowlist", allowFrom: ["a"] },
        { channel: "discord", accountId: "second", dmPolicy: "open" },
      ],
    });
    expect(resolveChannelPolicy(config, "discord", "second")).toMatchObject({
      dmPolicy: "open",
      admins: ["owner"],
      allowFrom: ["a"],
    });
    expect(resolveChannelPolicy(config, "discord", "first").dmPolicy).toBe("allowlist");
  });
});
