import { addRestorationSources } from "@chorus/core";
import { createSkillTool, loadedSkillsSource, type Skill, skillsPromptSection } from "@chorus/tools";
import type { GatewayExtension } from "../extension/index.js";
import { SKILLS_COMMAND_PERMISSIONS } from "./skills-permissions.js";

/**
 * Skills as a gateway extension: each agent's skills (`loadSkills` from @chorus/tools) described in its system prompt,
 * `load_skill` bringing a body into the turn, `/skills` listing them, `/<skill-name>` passed to the agent as text, and
 * the skills a session loaded brought back after a compaction (context restoration, seed 004).
 * Contract: an agent without skills gets nothing (no prompt addition, no tool); `/skills` then says so.
 * @example
 * const { skills } = await loadSkills(["./skills"]);
 * new Gateway({ ...options, extensions: [skillsExtension({ main: skills })] });
 */
export function skillsExtension(skillsByAgent: Readonly<Record<string, readonly Skill[]>>): GatewayExtension {
  const skillsOf = (agentId: string): readonly Skill[] => skillsByAgent[agentId] ?? [];
  return {
    name: "skills",
    commandPermissions: SKILLS_COMMAND_PERMISSIONS,
    commands: [
      {
        name: "skills",
        usage: "/skills",
        description: "list the agent's skills",
        adminOnly: false,
        async run({ agentId }) {
          const skills = skillsOf(agentId);
          if (skills.length === 0) return "This agent has no skills.";
          return [
            `**Skills** (${skills.length})`,
            ...skills.map((skill) => `- **${skill.name}**: ${skill.description}`),
          ].join("\n");
        },
      },
    ],
    agentPrompt: (agentId) => {
      const skills = skillsOf(agentId);
      return skills.length === 0 ? undefined : skillsPromptSection(skills);
    },
    toolsFor: (agentId) => {
      const skills = skillsOf(agentId);
      return skills.length === 0 ? [] : [createSkillTool(skills)];
    },
    agentCommands: (agentId) => skillsOf(agentId).map(({ name, description }) => ({ name, description })),
    // The skills a session loaded come back after a compaction, unless the agent turned restoration off.
    sessionAgent: ({ agentId }) => {
      const skills = skillsOf(agentId);
      if (skills.length === 0) return undefined;
      const source = loadedSkillsSource(skills);
      return { context: (context) => addRestorationSources(context, { skills: source }) };
    },
  };
}
