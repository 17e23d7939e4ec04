import type { Skill } from "../skill-types.js";
import { sampleBeta } from "./sample-beta.js";
import { type RandomSource, SKILL_ARM_PRIOR, type SkillArm } from "./skill-arm.js";

/**
 * Thompson sampling over the whole catalog (seed 003 step 3): one Beta(alpha, beta) draw per skill (its stored arm,
 * or the Beta(1, 1) prior), and the skill with the highest draw wins. Arms of skills no longer in the catalog are
 * ignored: only a visible skill is ever picked.
 * Contract: undefined for an empty catalog; otherwise one of `skills`, the same one for the same random sequence.
 * @example chooseSkill(skills, await store.skillArms("main"), Math.random)?.name
 */
export function chooseSkill(
  skills: readonly Skill[],
  arms: readonly SkillArm[],
  random: RandomSource,
): Skill | undefined {
  const armOf = new Map(arms.map((arm) => [arm.skill, arm]));
  let best: { skill: Skill; draw: number } | undefined;
  for (const skill of skills) {
    const arm = armOf.get(skill.name) ?? SKILL_ARM_PRIOR;
    const draw = sampleBeta(arm.alpha, arm.beta, random);
    if (best === undefined || draw > best.draw) best = { skill, draw };
  }
  return best?.skill;
}
