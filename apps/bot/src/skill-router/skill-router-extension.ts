import type { GatewayExtension } from "@chorus/gateway";
import type { SkillArmStore } from "@chorus/memory";
import { chooseSkill, type RandomSource, type Skill, skillHintLine, skillOutcomeOf } from "@chorus/tools";

/** What the skill router needs: the agents it runs for, their skills, where the arms are kept. */
export interface SkillRouterOptions {
  /** The agents with `skillRouter: true`; every other agent's turns are untouched. */
  readonly agents: readonly string[];
  readonly skillsByAgent: Readonly<Record<string, readonly Skill[]>>;
  /** The durable arms (the memory store), opened at the extension's start when given as a function. */
  readonly arms: SkillArmStore | (() => Promise<SkillArmStore & { close(): Promise<void> }>);
  /** The sampler's randomness (`Math.random` by default; `seededRandom(n)` in tests). */
  readonly random?: RandomSource;
}

/**
 * The Thompson-sampled skill router (seed 003 steps 3, 14 and 19): before each turn of a routed agent with skills,
 * one Beta(alpha, beta) draw per skill of its catalog picks a skill, named in a single non-binding hint line appended to
 * the turn's system prompt; when the turn ends, its stop reason credits that skill's arm (completed: success; max
 * turns, error, abort: failure; anything else: no change). Arms are kept per agent and skill in the memory store.
 * Contract: off for agents not listed, and for an agent without skills; a failing arm read gives no hint and a
 * failing credit is logged, the turn is answered either way.
 * @example
 * skillRouterExtension({ agents: ["main"], skillsByAgent: { main: skills }, arms: memoryStore })
 */
export function skillRouterExtension(options: SkillRouterOptions): GatewayExtension {
  const routed = new Set(options.agents);
  const random = options.random ?? Math.random;
  // The pick of each session's running turn, credited by its afterTurn (one turn at a time per session).
  const picks = new Map<string, string>();
  let arms: SkillArmStore | undefined = typeof options.arms === "function" ? undefined : options.arms;
  let opened: { close(): Promise<void> } | undefined;
  let warn: (fields: Record<string, unknown>, message: string) => void = () => undefined;
  const skillsOf = (agentId: string): readonly Skill[] =>
    routed.has(agentId) ? (options.skillsByAgent[agentId] ?? []) : [];
  return {
    name: "skill-router",
    async start(context) {
      warn = (fields, message) => context.logger.warn(fields, message);
      if (typeof options.arms === "function" && skillsOfAny()) {
        const store = await options.arms();
        arms = store;
        opened = store;
      }
    },
    async stop() {
      await opened?.close();
      opened = undefined;
    },
    async beforeTurn(turn) {
      picks.delete(turn.sessionKey);
      const skills = skillsOf(turn.agentId);
      if (skills.length === 0 || arms === undefined) return undefined;
      const picked = chooseSkill(skills, await arms.skillArms(turn.agentId), random);
      if (picked === undefined) return undefined;
      picks.set(turn.sessionKey, picked.name);
      return { systemPromptAddition: skillHintLine(picked) };
    },
    async afterTurn(turn) {
      const skill = picks.get(turn.sessionKey);
      if (skill === undefined) return;
      picks.delete(turn.sessionKey);
      const outcome = skillOutcomeOf(turn.result?.reason);
      if (outcome === "neutral" || arms === undefined) return;
      try {
        await arms.creditSkillArm(turn.agentId, skill, outcome);
      } catch (error) {
        warn(
          { agentId: turn.agentId, skill, err: error instanceof Error ? error.message : String(error) },
          "the skill router could not credit its pick",
        );
      }
    },
  };

  function skillsOfAny(): boolean {
    return options.agents.some((agentId) => (options.skillsByAgent[agentId] ?? []).length > 0);
  }
}
