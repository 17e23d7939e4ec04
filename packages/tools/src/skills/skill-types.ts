/** One skill: a folder with a SKILL.md (Agent Skills convention). */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The skill's folder (absolute). */
  readonly dir: string;
  /** Its SKILL.md (absolute). */
  readonly file: string;
}

/** A skill folder that was skipped, and why (e.g. front matter without a description). */
export interface SkillProblem {
  readonly file: string;
  readonly message: string;
}

/** What a scan of the skill folders found. */
export interface SkillCatalog {
  readonly skills: readonly Skill[];
  readonly problems: readonly SkillProblem[];
}
