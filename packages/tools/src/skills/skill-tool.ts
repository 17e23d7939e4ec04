import { readdir, readFile } from "node:fs/promises";
import { type AnyAgentTool, defineTool } from "@chorus/core";
import { z } from "zod";
import { parseSkillFile } from "./parse-skill-file.js";
import type { Skill } from "./skill-types.js";

/** The skill tool's name (what the restoration of loaded skills looks for in a transcript). */
export const LOAD_SKILL_TOOL = "load_skill";

/**
 * The `load_skill` tool: returns a skill's SKILL.md body (read when called, so an edit shows at once) and the other
 * files of its folder, to read with read_file. Contract: an unknown name is an error result listing the known ones.
 */
export function createSkillTool(skills: readonly Skill[]): AnyAgentTool {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    name: LOAD_SKILL_TOOL,
    description: "Loads a skill's instructions by name (the skills are listed in the system prompt).",
    parameters: z.object({ name: z.string().describe("the skill's name") }),
    category: "info",
    concurrencySafe: true,
    execute: async ({ name }) => {
      const skill = byName.get(name);
      if (skill === undefined) {
        const known = [...byName.keys()].join(", ") || "(none)";
        return {
          content: [{ type: "text", text: `Unknown skill ${JSON.stringify(name)}; known skills: ${known}` }],
          isError: true,
        };
      }
      const parsed = parseSkillFile(await readFile(skill.file, "utf8"));
      if (!parsed.ok)
        return { content: [{ type: "text", text: `Skill ${name} is broken: ${parsed.message}` }], isError: true };
      const others = (await readdir(skill.dir, { recursive: true })).filter((file) => file !== "SKILL.md").sort();
      const files =
        others.length === 0
          ? ""
          : `\n\nFiles of this skill (in ${skill.dir}):\n${others.map((f) => `- ${f}`).join("\n")}`;
      return { content: [{ type: "text", text: `${parsed.body}${files}` }] };
    },
  });
}
