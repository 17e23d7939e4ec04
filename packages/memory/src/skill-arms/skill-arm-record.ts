/**
 * A skill router's arm as the memory store keeps it (seed 003 steps 3 and 19): per agent and skill, the Beta(alpha,
 * beta) belief that a turn hinted with the skill ends well. A skill with no row is at the Beta(1, 1) prior.
 */
export interface SkillArmRecord {
  readonly skill: string;
  readonly alpha: number;
  readonly beta: number;
}

/** One credited outcome: `success` adds one to alpha, `failure` one to beta (a neutral outcome is never stored). */
export type SkillArmCredit = "success" | "failure";

/** Where a skill router's arms are kept durably: every `MemoryStore` is one. */
export interface SkillArmStore {
  /** The agent's stored arms (skills never credited are left out), by skill name. */
  skillArms(agentId: string): Promise<SkillArmRecord[]>;
  /**
   * Adds one outcome to the agent's arm of `skill`, creating it at the Beta(1, 1) prior first. Contract: one atomic
   * statement, so instances of a cluster crediting at once lose no outcome.
   */
  creditSkillArm(agentId: string, skill: string, credit: SkillArmCredit): Promise<void>;
}

/** The alpha and beta increments of a credit. */
export function creditIncrements(credit: SkillArmCredit): [number, number] {
  if (credit !== "success" && credit !== "failure") throw new TypeError(`unknown skill arm credit ${String(credit)}`);
  return credit === "success" ? [1, 0] : [0, 1];
}

/** An arm row as both stores return it (Postgres returns doubles as numbers, but be safe with strings). */
export function skillArmFromRow(row: { skill: string; alpha: number | string; beta: number | string }): SkillArmRecord {
  return { skill: row.skill, alpha: Number(row.alpha), beta: Number(row.beta) };
}
