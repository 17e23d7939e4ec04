import type { ExtensionStartContext, GatewayExtension, TurnCommitted } from "@chorus/gateway";
import { isSubagentKey } from "@chorus/gateway";
import { modelSkillBody } from "./model-skill-body.js";
import { draftNameOf, draftNameTaken, writePendingDraft } from "./pending-skill-drafts.js";
import { nextStreaks, storedStreaksOf } from "./signature-streaks.js";
import { skillDraftMarkdown, templateSkillBody } from "./skill-draft-markdown.js";
import { skillDraftsCommand, skillDraftsPermissions } from "./skill-drafts-command.js";
import { taskSignatureOf } from "./task-signature.js";
import { turnOutcomeOf } from "./turn-outcome.js";
import { turnRequestOf, turnStepsOf } from "./turn-steps.js";

/** The session setting the streaks are kept in (`{ streaks: { <signature>: <count> } }`). */
export const SKILL_DRAFTER_SETTING = "skillDrafter";

/** What `skillDrafterExtension` is given. */
export interface SkillDrafterOptions {
  /** The agents whose turns are bucketed and drafted from (`agents[].skillDrafter: true`). */
  readonly agents: readonly string[];
  /** An agent's own skills folder (`<workspace>/skills`), where drafts wait in `.pending`; undefined: none. */
  skillsDirOf(agentId: string): string | undefined;
  /** A draft call still running after this long is abandoned and the template is written. Default 30 000 ms. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The auto-skill drafter (seed 003 step 20): after each turn of a drafting agent, the turn's request is bucketed by its
 * task signature (`taskSignatureOf`) and its outcome (`turnOutcomeOf`) moves that signature's streak, kept in the
 * session's settings; the third success in a row drafts a SKILL.md from that turn's steps — written by the session's
 * model through the gateway's StreamFn (purpose `skill_draft`, inside the budgets), or from a template when that call
 * fails — into `<skills>/.pending/<name>/`, where the skill loader never looks. `/skilldrafts` (admins) lists the
 * drafts; `/skilldrafts approve <name>` (admins, in a DM) moves one into `<skills>/<name>`, loaded at the next start;
 * `/skilldrafts reject <name>` deletes it.
 * Contract: sub-agent sessions and other agents are never bucketed; one draft per name (a later third success of a
 * signature already drafted or approved writes nothing); a failure anywhere is logged and never reaches the chat.
 * @example new Gateway({ ...options, extensions: [skillDrafterExtension({ agents: ["main"], skillsDirOf: () => "./skills" })] });
 */
export function skillDrafterExtension(options: SkillDrafterOptions): GatewayExtension {
  const drafting = new Set(options.agents);
  let context: ExtensionStartContext | undefined;
  const running = new Set<AbortController>();
  // One session's observations in turn order: the next turn's may start before this one's write is done.
  const chains = new Map<string, Promise<void>>();

  async function observe(start: ExtensionStartContext, turn: TurnCommitted, signature: string): Promise<void> {
    const outcome = turnOutcomeOf(turn);
    let draft = false;
    await start.store.transaction(async (tx) => {
      const session = await tx.getSession(turn.sessionKey);
      if (session === undefined) return;
      const step = nextStreaks(storedStreaksOf(session.settings[SKILL_DRAFTER_SETTING]), signature, outcome);
      draft = step.draft;
      await tx.updateSession(turn.sessionKey, {
        settings: { ...session.settings, [SKILL_DRAFTER_SETTING]: { streaks: { ...step.streaks } } },
      });
    });
    if (draft) await writeDraft(start, turn, signature);
  }

  async function writeDraft(start: ExtensionStartContext, turn: TurnCommitted, signature: string): Promise<void> {
    const skillsDir = options.skillsDirOf(turn.agentId);
    const session = await start.store.getSession(turn.sessionKey);
    if (skillsDir === undefined || session === undefined) return;
    const name = draftNameOf(signature);
    if (await draftNameTaken(skillsDir, name)) return;
    const steps = turnStepsOf(turn);
    const controller = new AbortController();
    running.add(controller);
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let body: string | undefined;
    try {
      body = await modelSkillBody(steps, {
        model: start.sessionModel(session),
        streamFn: start.streamFn,
        sessionKey: turn.sessionKey,
        signal: controller.signal,
      });
    } finally {
      clearTimeout(timer);
      running.delete(controller);
    }
    const written = await writePendingDraft(skillsDir, name, {
      skillMd: skillDraftMarkdown(name, signature, steps, body ?? templateSkillBody(name, steps)),
      manifest: { name, signature, auto_drafted: true, needs_review: true, score: 0.7, drafted_by_model: !!body },
    });
    if (written) start.logger.info({ agentId: turn.agentId, skill: name }, "skill drafted for review");
  }

  return {
    name: "skill-drafter",
    commands: [skillDraftsCommand(options.skillsDirOf)],
    commandPermissions: skillDraftsPermissions,
    start(start) {
      context = start;
    },
    afterTurn(turn) {
      if (context === undefined || !drafting.has(turn.agentId) || isSubagentKey(turn.sessionKey)) return;
      const signature = taskSignatureOf(turnRequestOf(turn));
      if (signature === "") return;
      const start = context;
      const previous = chains.get(turn.sessionKey) ?? Promise.resolve();
      const next = previous
        .then(() => observe(start, turn, signature))
        .catch((error: unknown) =>
          start.logger.warn({ agentId: turn.agentId, err: error }, "skill drafter could not observe a turn"),
        )
        .finally(() => {
          if (chains.get(turn.sessionKey) === next) chains.delete(turn.sessionKey);
        });
      chains.set(turn.sessionKey, next);
      context.track(next);
    },
    stopping() {
      for (const controller of running) controller.abort();
    },
  };
}
