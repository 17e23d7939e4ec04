import type { Skill } from "../skill-types.js";

/**
 * The router's single, non-binding hint line for a turn's system prompt (seed 003 step 14).
 * Contract: one line (line breaks in the description become spaces).
 * @example skillHintLine(skill) // "A skill that may help: release — Cut a release (load it with load_skill if useful)"
 */
export function skillHintLine(skill: Pick<Skill, "name" | "description">): string {
  const description = skill.description.replace(/\s+/g, " ").trim();
  return `A skill that may help: ${skill.name} — ${description} (load it with load_skill if useful)`;
}
