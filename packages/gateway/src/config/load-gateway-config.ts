import type { z } from "zod";
import { bindingTier, compareSpecificity, describeMatch, matchesCanOverlap } from "./binding-specificity.js";
import { type ConfigIssue, formatConfigPath, GatewayConfigError } from "./gateway-config-error.js";
import { type GatewayConfig, gatewayConfigSchema } from "./gateway-config-schema.js";

/** The result of checking a configuration. */
export type ParseGatewayConfigResult = { ok: true; config: GatewayConfig } | { ok: false; issues: ConfigIssue[] };

/**
 * Validates a configuration (from JSON, YAML, code…) and applies defaults.
 * Besides the schema it checks references (binding → agent, defaultAgent), duplicate agents and channel entries,
 * and ambiguous bindings: two bindings of equal specificity that one message could both match.
 * Contract: never throws; every problem is reported with its exact path.
 */
export function parseGatewayConfig(input: unknown): ParseGatewayConfigResult {
  const parsed = gatewayConfigSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((issue) => toConfigIssue(issue, input)) };
  const issues = crossCheck(parsed.data);
  return issues.length === 0 ? { ok: true, config: parsed.data } : { ok: false, issues };
}

/**
 * Validates a configuration and applies defaults.
 * Contract: returns the config or throws GatewayConfigError listing every problem with its path.
 */
export function loadGatewayConfig(input: unknown): GatewayConfig {
  const result = parseGatewayConfig(input);
  if (!result.ok) throw new GatewayConfigError(result.issues);
  return result.config;
}

function toConfigIssue(issue: z.core.$ZodIssue, input: unknown): ConfigIssue {
  const value = valueAt(input, issue.path);
  // Echo the offending value to help the user, but never a long string: it might be a token put in the wrong place.
  const shown =
    typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= 40);
  return {
    path: formatConfigPath(issue.path),
    message: shown ? `${issue.message} (got ${JSON.stringify(value)})` : issue.message,
  };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function crossCheck(config: GatewayConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const agentIds = new Map<string, number>();
  config.agents.forEach((agent, index) => {
    const first = agentIds.get(agent.id);
    if (first === undefined) agentIds.set(agent.id, index);
    else
      issues.push({ path: `agents[${index}].id`, message: `duplicate agent id "${agent.id}" (also agents[${first}])` });
  });
  const known = [...agentIds.keys()].join(", ");
  if (config.defaultAgent !== undefined && !agentIds.has(config.defaultAgent)) {
    issues.push({
      path: "defaultAgent",
      message: `expected one of the agent ids (${known}), got "${config.defaultAgent}"`,
    });
  }
  config.bindings.forEach((binding, index) => {
    const path = `bindings[${index}]`;
    if (!agentIds.has(binding.agentId)) {
      issues.push({
        path: `${path}.agentId`,
        message: `expected one of the agent ids (${known}), got "${binding.agentId}"`,
      });
    }
    const match = binding.match;
    if (bindingTier(match) === "default") {
      issues.push({
        path: `${path}.match`,
        message:
          "expected at least one of channel, accountId, peer, group, guild, team (use defaultAgent for the fallback)",
      });
    }
    if (match.peer !== undefined && match.group !== undefined) {
      issues.push({ path: `${path}.match`, message: "peer (a DM) and group cannot both be set: no message is both" });
    }
    if (match.guild !== undefined && match.team !== undefined) {
      issues.push({ path: `${path}.match`, message: "guild and team are the same tier: set only one" });
    }
  });
  issues.push(...ambiguousBindings(config));
  const channelEntries = new Map<string, number>();
  config.channels.forEach((entry, index) => {
    const key = `${entry.channel}/${entry.accountId ?? "*"}`;
    const first = channelEntries.get(key);
    if (first === undefined) channelEntries.set(key, index);
    else {
      const scope =
        entry.accountId === undefined
          ? `channel "${entry.channel}"`
          : `account "${entry.accountId}" of channel "${entry.channel}"`;
      issues.push({ path: `channels[${index}]`, message: `duplicate policy for ${scope} (also channels[${first}])` });
    }
  });
  return issues;
}

function ambiguousBindings(config: GatewayConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const { bindings } = config;
  for (let j = 0; j < bindings.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = bindings[i]!.match;
      const b = bindings[j]!.match;
      if (compareSpecificity(a, b) !== 0 || !matchesCanOverlap(a, b)) continue;
      issues.push({
        path: `bindings[${j}]`,
        message:
          `ambiguous with bindings[${i}]: ${describeMatch(a)} → ${bindings[i]!.agentId} and ${describeMatch(b)} → ${bindings[j]!.agentId} ` +
          `are equally specific (${bindingTier(b)}) and can match the same message; make one more specific or remove one`,
      });
    }
  }
  return issues;
}
