import { join } from "node:path";
import type { AgentRuntimeSetup } from "@chorus/gateway";
import { loadSkills } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";
import type { AgentWorkspaces } from "./agent-workspaces.js";

/** Where skills are found: the agent's `<workspace>/skills`, then the shared `<dataDir>/skills`. */
export function skillFoldersOf(workspaceRoot: string, dataDir: string): string[] {
  return [join(workspaceRoot, "skills"), join(dataDir, "skills")];
}

/**
 * Adds each agent's skills to its setup. Contract: never throws; a skipped SKILL.md is reported through `warn`
 * with its file and why.
 */
export async function addAgentSkills(
  config: BotConfig,
  workspaces: AgentWorkspaces,
  dataDir: string,
  setups: Record<string, AgentRuntimeSetup>,
  warn: (obj: Record<string, unknown>, msg: string) => void,
): Promise<Record<string, AgentRuntimeSetup>> {
  for (const agent of config.agents) {
    const root = workspaces.byAgent[agent.id];
    const setup = setups[agent.id];
    if (root === undefined || setup === undefined) continue;
    const { skills, problems } = await loadSkills(skillFoldersOf(root, dataDir));
    for (const problem of problems)
      warn({ agentId: agent.id, file: problem.file, reason: problem.message }, "skill skipped");
    if (skills.length > 0) setups[agent.id] = { ...setup, skills };
  }
  return setups;
}
