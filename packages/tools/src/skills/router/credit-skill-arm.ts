import { SKILL_ARM_PRIOR, type SkillArm, type SkillOutcome } from "./skill-arm.js";

/**
 * An arm after one outcome (seed 003 step 19): success adds one to alpha, failure one to beta, neutral nothing.
 * Contract: pure; an arm not yet stored starts from the Beta(1, 1) prior.
 */
export function creditSkillArm(skill: string, arm: SkillArm | undefined, outcome: SkillOutcome): SkillArm {
  const { alpha, beta } = arm ?? SKILL_ARM_PRIOR;
  if (outcome === "success") return { skill, alpha: alpha + 1, beta };
  if (outcome === "failure") return { skill, alpha, beta: beta + 1 };
  return { skill, alpha, beta };
}
