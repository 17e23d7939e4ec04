import { readFile } from "node:fs/promises";
import { type AgentMessage, type RestoredSkill, type RestoredSkillsSource, restoredSkillNames } from "@chorus/core";
import { parseSkillFile } from "./parse-skill-file.js";
import { LOAD_SKILL_TOOL } from "./skill-tool.js";
import type { Skill } from "./skill-types.js";

/**
 * The skills a session loaded, for context restoration after a compaction (`context.restoration.skills`, seed 004):
 * those its transcript loaded with `load_skill` (most recent first), then those an earlier restoration brought back,
 * each with its SKILL.md body read now. Contract: only skills of `skills`; a failed load or an unreadable file is
 * left out; never throws.
 * @example context: { restoration: { skills: loadedSkillsSource(catalog.skills) } }
 */
export function loadedSkillsSource(skills: readonly Skill[]): RestoredSkillsSource {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return async (_run, transcript) => {
    const names = [...loadedNames(transcript), ...restoredSkillNames(transcript)];
    const restored: RestoredSkill[] = [];
    for (const name of new Set(names)) {
      const skill = byName.get(name);
      if (skill === undefined) continue;
      try {
        const parsed = parseSkillFile(await readFile(skill.file, "utf8"));
        if (parsed.ok) restored.push({ name, content: parsed.body });
      } catch {
        // Gone since it was loaded: nothing to bring back.
      }
    }
    return restored;
  };
}

/** The names `load_skill` loaded successfully in `transcript`, most recent first. */
function loadedNames(transcript: readonly AgentMessage[]): string[] {
  const failed = new Set<string>();
  for (const message of transcript) {
    if (message.role === "toolResult" && message.isError) failed.add(message.toolCallId);
  }
  const names: string[] = [];
  for (const message of transcript) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type !== "toolCall" || part.name !== LOAD_SKILL_TOOL || failed.has(part.id)) continue;
      if (typeof part.arguments.name === "string") names.push(part.arguments.name);
    }
  }
  return names.reverse();
}
