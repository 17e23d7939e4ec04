/**
 * One skill's arm of the router (seed 003 step 3): a Beta(alpha, beta) belief that a turn hinted with this skill
 * ends well. A skill never credited is Beta(1, 1), the uniform prior.
 */
export interface SkillArm {
  readonly skill: string;
  readonly alpha: number;
  readonly beta: number;
}

/** The prior of an arm with no outcome yet: Beta(1, 1). */
export const SKILL_ARM_PRIOR = { alpha: 1, beta: 1 } as const;

/**
 * What a turn's end says about the skill it was hinted (seed 003 step 19): `success` adds one to alpha, `failure` one
 * to beta, `neutral` changes neither.
 */
export type SkillOutcome = "success" | "failure" | "neutral";

/** A random number in [0, 1), like `Math.random` (a seeded one in tests: `seededRandom`). */
export type RandomSource = () => number;
