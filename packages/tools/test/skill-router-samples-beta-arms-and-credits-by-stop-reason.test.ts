import { describe, expect, it } from "vitest";
import {
  chooseSkill,
  creditSkillArm,
  type Skill,
  sampleBeta,
  seededRandom,
  skillHintLine,
  skillOutcomeOf,
} from "../src/index.js";

const skill = (name: string, description = `does ${name}`): Skill => ({
  name,
  description,
  dir: `/skills/${name}`,
  file: `/skills/${name}/SKILL.md`,
});

describe("the skill router's pure parts (seed 003 steps 3, 14, 19)", () => {
  it("Beta draws have the distribution's mean and stay in [0, 1]", () => {
    const random = seededRandom(1);
    for (const [alpha, beta] of [
      [1, 1],
      [8, 2],
      [0.5, 3],
    ] as const) {
      const draws = Array.from({ length: 4_000 }, () => sampleBeta(alpha, beta, random));
      const mean = draws.reduce((sum, draw) => sum + draw, 0) / draws.length;
      expect(mean).toBeCloseTo(alpha / (alpha + beta), 1);
      expect(draws.every((draw) => draw >= 0 && draw <= 1)).toBe(true);
    }
    expect(() => sampleBeta(0, 1, random)).toThrow(RangeError);
  });

  it("a seeded pick is reproducible, and a skill with many successes wins over the priors almost always", () => {
    const skills = [skill("deploy"), skill("triage"), skill("translate")];
    const arms = [{ skill: "deploy", alpha: 30, beta: 1 }];
    const picks = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 200 }, () => chooseSkill(skills, arms, random)?.name);
    };
    expect(picks(9)).toEqual(picks(9));
    // P(Beta(30, 1) beats two uniform draws) = E[x²] = 30/32: about 187 of 200.
    expect(picks(9).filter((name) => name === "deploy").length).toBeGreaterThan(175);
    expect(chooseSkill([], arms, seededRandom(1))).toBeUndefined();
    // An arm of a skill no longer in the catalog is never picked.
    expect(chooseSkill([skill("triage")], [{ skill: "gone", alpha: 99, beta: 1 }], seededRandom(2))?.name).toBe(
      "triage",
    );
  });

  it("a turn's end reason credits as step 19 says: completed succeeds; max turns, error, abort fail; the rest is neutral", () => {
    expect(skillOutcomeOf("completed")).toBe("success");
    expect(skillOutcomeOf("max_turns")).toBe("failure");
    expect(skillOutcomeOf("error")).toBe("failure");
    expect(skillOutcomeOf("aborted")).toBe("failure");
    expect(skillOutcomeOf("length")).toBe("neutral");
    expect(skillOutcomeOf("policy")).toBe("neutral");
    expect(skillOutcomeOf(undefined)).toBe("neutral");
    expect(creditSkillArm("deploy", undefined, "success")).toEqual({ skill: "deploy", alpha: 2, beta: 1 });
    expect(creditSkillArm("deploy", { skill: "deploy", alpha: 2, beta: 1 }, "failure")).toEqual({
      skill: "deploy",
      alpha: 2,
      beta: 2,
    });
    expect(creditSkillArm("deploy", { skill: "deploy", alpha: 2, beta: 2 }, "neutral")).toEqual({
      skill: "deploy",
      alpha: 2,
      beta: 2,
    });
  });

  it("the hint is one non-binding line naming the skill and load_skill", () => {
    expect(skillHintLine(skill("release", "Cut a release\nand announce it"))).toBe(
      "A skill that may help: release — Cut a release and announce it (load it with load_skill if useful)",
    );
  });
});
