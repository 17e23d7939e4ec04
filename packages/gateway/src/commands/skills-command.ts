import type { CommandDefinition } from "./command-types.js";

/** /skills: the skills this chat's agent can load, with their descriptions. */
export const skillsCommand: CommandDefinition = {
  name: "skills",
  usage: "/skills",
  description: "list the agent's skills",
  adminOnly: false,
  async run({ host, agentId }) {
    const skills = host.skills?.(agentId) ?? [];
    if (skills.length === 0) return "This agent has no skills.";
    return [
      `**Skills** (${skills.length})`,
      ...skills.map((skill) => `- **${skill.name}**: ${skill.description}`),
    ].join("\n");
  },
};
