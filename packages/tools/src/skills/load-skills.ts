import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseSkillFile } from "./parse-skill-file.js";
import type { Skill, SkillCatalog, SkillProblem } from "./skill-types.js";

/**
 * Scans skill folders (e.g. the agent's `<workspace>/skills`, then a shared one): every subfolder holding a
 * SKILL.md is a skill. Contract: never throws; a missing folder holds no skills; a SKILL.md with bad front matter
 * is skipped and reported in `problems`; when two folders hold the same name the first listed wins.
 */
export async function loadSkills(folders: readonly string[]): Promise<SkillCatalog> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    let entries: string[];
    try {
      entries = (await readdir(folder, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch {
      continue;
    }
    for (const entry of entries.sort()) {
      const dir = resolve(folder, entry);
      const file = join(dir, "SKILL.md");
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        continue;
      }
      const parsed = parseSkillFile(text);
      if (!parsed.ok) {
        problems.push({ file, message: parsed.message });
        continue;
      }
      if (seen.has(parsed.name)) continue;
      seen.add(parsed.name);
      skills.push({ name: parsed.name, description: parsed.description, dir, file });
    }
  }
  return { skills, problems };
}
