import type { Skill } from "./skill-types.js";

/**
 * The system prompt section listing the skills: one line each, name and description; bodies are loaded on demand
 * with `load_skill`. Contract: an empty string for no skills.
 */
export function skillsPromptSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  return [
    "## Skills",
    "When a task matches one of these skills, call load_skill with its name first and follow its instructions.",
    ...lines,
  ].join("\n");
}
