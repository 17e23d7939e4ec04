/** Why a draft could not be approved or rejected. */
export type SkillDraftProblem = "bad-name" | "not-found" | "exists";

/**
 * A `/skilldrafts` request that cannot be done: a name that is not a skill name (e.g. `../x`: never a path), no
 * pending draft of that name, or a skill of that name already in place. Contract: `message` is safe to show in chat.
 */
export class SkillDraftError extends Error {
  readonly problem: SkillDraftProblem;
  readonly draftName: string;

  constructor(problem: SkillDraftProblem, draftName: string) {
    const shown = JSON.stringify(draftName.slice(0, 80));
    super(
      problem === "bad-name"
        ? `${shown} is not a skill name: lower-case letters, digits and '-' (1–64).`
        : problem === "not-found"
          ? `No draft named ${shown} is waiting for review.`
          : `A skill named ${shown} is already in place; reject the draft or remove that skill first.`,
    );
    this.name = "SkillDraftError";
    this.problem = problem;
    this.draftName = draftName;
  }
}
