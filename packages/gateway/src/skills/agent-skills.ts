import type { AnyAgentTool } from "@chorus/core";
import { createSkillTool, type Skill, skillsPromptSection } from "@chorus/tools";

/**
 * An agent's skills as its system prompt gains them (the descriptions, appended) and the `load_skill` tool.
 * Contract: no skills leave the prompt as it was and add no tool.
 */
export function withSkills(
  systemPrompt: string | undefined,
  skills: readonly Skill[] | undefined,
): { systemPrompt: string | undefined; tools: AnyAgentTool[] } {
  if (skills === undefined || skills.length === 0) return { systemPrompt, tools: [] };
  const section = skillsPromptSection(skills);
  return {
    systemPrompt: systemPrompt === undefined ? section : `${systemPrompt}\n\n${section}`,
    tools: [createSkillTool(skills)],
  };
}
