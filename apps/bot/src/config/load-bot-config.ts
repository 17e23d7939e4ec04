import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { formatConfigPath, parseGatewayConfig } from "@chorus/gateway";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { z } from "zod";
import { buildModelRegistry, resolveModelRef } from "../models/model-reference.js";
import { agentLoopIssues } from "./agent-loop-issues.js";
import { BotConfigError, type BotConfigIssue } from "./bot-config-error.js";
import { type BotConfig, botConfigSchema } from "./bot-config-schema.js";
import { interpolateEnv } from "./env-interpolation.js";
import { accountsOf, gatewayConfigOf } from "./gateway-config-of.js";
import { withStoreFromEnv } from "./store-from-env.js";

/** A loaded configuration and where it came from. */
export interface LoadedBotConfig {
  readonly config: BotConfig;
  /** The file, or "(defaults)" when the config was derived from the environment. */
  readonly source: string;
}

/** The result of checking a configuration. */
export type ParseBotConfigResult = { ok: true; config: BotConfig } | { ok: false; issues: BotConfigIssue[] };

/**
 * Reads, interpolates and validates a YAML or JSON config file.
 * Contract: resolves the config or rejects with BotConfigError naming the file and every problem's path.
 */
export async function loadBotConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedBotConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BotConfigError(path, [
      {
        path: "(file)",
        message: code === "ENOENT" ? "file not found" : `cannot read the file (${code ?? String(error)})`,
      },
    ]);
  }
  const raw = parseConfigText(path, text);
  const interpolated = interpolateEnv(raw, env);
  if (!interpolated.ok) throw new BotConfigError(path, interpolated.issues);
  const result = parseBotConfig(withStoreFromEnv(interpolated.value, env));
  if (!result.ok) throw new BotConfigError(path, result.issues);
  return { config: result.config, source: path };
}

/**
 * Validates an already parsed (and interpolated) configuration: the schema, then references between sections
 * (agents, bindings, models, duplicate accounts) through the gateway's own checks.
 * Contract: never throws; every problem comes with its exact path.
 */
export function parseBotConfig(input: unknown): ParseBotConfigResult {
  const parsed = botConfigSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((issue) => toIssue(issue, input)) };
  const config = parsed.data;
  const issues: BotConfigIssue[] = [];
  const gateway = parseGatewayConfig(gatewayConfigOf(config));
  if (!gateway.ok) {
    // Agents and bindings keep their paths; channel-entry issues are caught below with the bot's own paths.
    issues.push(...gateway.issues.filter((issue) => !issue.path.startsWith("channels")));
  }
  const registry = buildModelRegistry(config);
  config.agents.forEach((agent, index) => {
    try {
      resolveModelRef(agent.model, registry, config);
    } catch (error) {
      issues.push({ path: `agents[${index}].model`, message: (error as Error).message });
    }
    issues.push(...agentLoopIssues(agent, index, (ref) => resolveModelRef(ref, registry, config)));
    const modelRefs = [
      ["goals.supervisorModel", agent.goals.supervisorModel],
      ["goals.inferenceModel", agent.goals.inferenceModel],
      ["compaction.subgoalModel", agent.compaction.subgoalModel],
      ["context.sessionMemory.model", agent.context.sessionMemory?.model],
      ["context.toolPairSummaries.model", agent.context.toolPairSummaries?.model],
    ] as const;
    const pruning = agent.compaction.pruning;
    if (agent.context.focus?.enabled && pruning.length > 0) {
      issues.push({
        path: `agents[${index}].context.focus.enabled`,
        message: `the focus strategy and subgoal pruning (compaction.pruning: ${pruning.join(", ")}) are mutually exclusive compression strategies; enable only one`,
      });
    }
    for (const [path, ref] of modelRefs) {
      if (ref === undefined) continue;
      try {
        resolveModelRef(ref, registry, config);
      } catch (error) {
        issues.push({ path: `agents[${index}].${path}`, message: (error as Error).message });
      }
    }
  });
  if (config.titles !== undefined) {
    try {
      resolveModelRef(config.titles.model, registry, config);
    } catch (error) {
      issues.push({ path: "titles.model", message: (error as Error).message });
    }
  }
  for (const kind of ["discord", "slack", "telegram", "webchat"] as const) {
    const seen = new Map<string, number>();
    accountsOf(config, kind).forEach((account, index) => {
      const first = seen.get(account.accountId);
      if (first === undefined) seen.set(account.accountId, index);
      else {
        issues.push({
          path: `channels.${kind}[${index}].accountId`,
          message: `duplicate account id "${account.accountId}" (also channels.${kind}[${first}]); give each account its own accountId`,
        });
      }
    });
  }
  return issues.length === 0 ? { ok: true, config } : { ok: false, issues };
}

function parseConfigText(path: string, text: string): unknown {
  const isJson = extname(path).toLowerCase() === ".json";
  try {
    return isJson ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const where =
      error instanceof YAMLParseError && error.linePos?.[0]
        ? `line ${error.linePos[0].line}, column ${error.linePos[0].col}`
        : "(syntax)";
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    throw new BotConfigError(path, [{ path: where, message: `not valid ${isJson ? "JSON" : "YAML"}: ${message}` }]);
  }
}

function toIssue(issue: z.core.$ZodIssue, input: unknown): BotConfigIssue {
  const value = valueAt(input, issue.path);
  // Echo short values to help; never a long string: it might be a token pasted into the wrong field.
  const shown =
    typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= 40);
  const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : undefined;
  const message = unknownKeys
    ? `unknown field${unknownKeys.length > 1 ? "s" : ""} ${unknownKeys.map((key) => `"${key}"`).join(", ")} (check the spelling; \`chorus config schema\` lists every field)`
    : issue.message;
  return {
    path: formatConfigPath(issue.path),
    message: shown && !unknownKeys ? `${message} (got ${JSON.stringify(value)})` : message,
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
