import type { Model } from "@chorus/core";
import type { BotConfigIssue } from "./bot-config-error.js";
import type { BotAgent } from "./bot-config-schema.js";

/** Resolves a model name as the agent's `model` takes it; throws (saying what it accepts) when unknown. */
export type ResolveModel = (ref: string) => Model;

/**
 * What is wrong with an agent's loop settings: unknown or repeated fallback models, a fallback stall recovery without
 * fallback models, compaction fields the level does not use, a reserve that leaves no room in a model's window.
 * Contract: pure; every issue names its exact path (`agents[0].fallbackModels[1]`); `[]` when all is well.
 */
export function agentLoopIssues(agent: BotAgent, index: number, resolve: ResolveModel): BotConfigIssue[] {
  const at = (path: string): string => `agents[${index}].${path}`;
  const issues: BotConfigIssue[] = [];
  const known = (ref: string, path: string): Model | undefined => {
    try {
      return resolve(ref);
    } catch (error) {
      issues.push({ path: at(path), message: (error as Error).message });
      return undefined;
    }
  };
  const own = tryResolve(resolve, agent.model);
  const models: Model[] = own === undefined ? [] : [own];
  const seen = new Map<string, number>();
  agent.fallbackModels.forEach((ref, i) => {
    const model = known(ref, `fallbackModels[${i}]`);
    if (model === undefined) return;
    const key = `${model.provider}/${model.id}`;
    const first = seen.get(key);
    if (own !== undefined && key === `${own.provider}/${own.id}`) {
      issues.push({
        path: at(`fallbackModels[${i}]`),
        message: `"${ref}" is the agent's own model; list other models`,
      });
    } else if (first !== undefined) {
      issues.push({
        path: at(`fallbackModels[${i}]`),
        message: `"${ref}" is listed twice (also fallbackModels[${first}])`,
      });
    } else {
      seen.set(key, i);
      models.push(model);
    }
  });
  if (agent.stallRecovery === "fallback" && agent.fallbackModels.length === 0) {
    issues.push({ path: at("stallRecovery"), message: `"fallback" needs fallbackModels to fall back to` });
  }
  const compaction = agent.compaction;
  if (compaction.level !== "full") {
    for (const key of ["model", "reserveTokens", "keepRecentTokens"] as const) {
      if (compaction[key] === undefined) continue;
      issues.push({
        path: at(`compaction.${key}`),
        message: `only used when compaction.level is full (it is ${compaction.level}: nothing is summarised)`,
      });
    }
    return issues;
  }
  if (compaction.model !== undefined) known(compaction.model, "compaction.model");
  const reserve = compaction.reserveTokens;
  const tight = reserve === undefined ? undefined : models.find((model) => reserve >= model.contextWindow);
  if (tight !== undefined) {
    issues.push({
      path: at("compaction.reserveTokens"),
      message: `${reserve} leaves no room in ${tight.id}'s ${tight.contextWindow}-token context window`,
    });
  }
  return issues;
}

function tryResolve(resolve: ResolveModel, ref: string): Model | undefined {
  try {
    return resolve(ref);
  } catch {
    return undefined; // the agent's own model is reported at `agents[i].model`
  }
}
