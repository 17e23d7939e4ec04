import { join } from "node:path";
import { loadSkills, type Skill } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";
import type { AgentWorkspaces } from "./agent-workspaces.js";

/** Where skills are found: the agent's `<workspace>/skills`, then the shared `<dataDir>/skills`. */
export function skillFoldersOf(workspaceRoot: string, dataDir: string): string[] {
  return [join(workspaceRoot, "skills"), join(dataDir, "skills")];
}

/**
 * Each agent's skills (for `skillsExtension`). Contract: never throws; a skipped SKILL.md is reported through `warn`
 * with its file and why.
 */
export async function agentSkillsOf(
  config: BotConfig,
  workspaces: AgentWorkspaces,
  dataDir: string,
  warn: (obj: Record<string, unknown>, msg: string) => void,
): Promise<Record<string, readonly Skill[]>> {
  const byAgent: Record<string, readonly Skill[]> = {};
  for (const agent of config.agents) {
    const root = workspaces.byAgent[agent.id];
    if (root === undefined) continue;
    const { skills, problems } = await loadSkills(skillFoldersOf(root, dataDir));
    for (const problem of problems)
      warn({ agentId: agent.id, file: problem.file, reason: problem.message }, "skill skipped");
    if (skills.length > 0) byAgent[agent.id] = skills;
  }
  return byAgent;
}
