import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { autonomyExtension } from "@chorus/extension-autonomy";
import { type GatewayConfigInput, type SessionStore, skillsExtension } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { loadSkills } from "@chorus/tools";
import { SKILL_DRAFT_PROMPT } from "../../src/skill-drafts/model-skill-body.js";
import { skillDrafterExtension } from "../../src/skill-drafts/skill-drafter-extension.js";

export const ADMIN = { id: "admin", name: "Admin" };
export const GUEST = { id: "guest", name: "Guest" };
export const ADMIN_DM_KEY = "main:main:test:dm:admin";

/** A turn that fails: a provider error no retry fixes. */
export const FAILING_TURN: ScriptedTurn = {
  fault: "error",
  error: { kind: "invalid_request", message: "bad request" },
};

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model", budgets: { dailyTokens: 1_000_000 } }],
  channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], groupPolicy: "open" }],
};

/** Whether a model call is a skill-draft call (the drafter's instruction as its system prompt). */
export const isDraftCall = (context: StreamContext): boolean => context.systemPrompt === SKILL_DRAFT_PROMPT;

/** A temporary agent workspace whose `skills` folder the drafter writes into. */
export async function tempSkillsDir(): Promise<{ skillsDir: string; remove(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), "chorus-skill-drafts-"));
  return { skillsDir: join(root, "skills"), remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * A gateway whose agent `main` drafts skills into `skillsDir` and has the skills the loader finds there now (as the
 * bot does at each start): budgets first (so a draft call is reserved), then skills, then the drafter. Turns answer
 * `turn()` (default "Done."), draft calls `draft`.
 */
export async function startDrafterGateway(options: {
  readonly skillsDir: string;
  readonly store?: SessionStore;
  readonly turn?: () => ScriptedTurn;
  readonly draft?: ScriptedTurn;
}): Promise<Harness> {
  const { skills } = await loadSkills([options.skillsDir]);
  return startHarness({
    config: CONFIG,
    ...(options.store === undefined ? {} : { store: options.store }),
    script: (context) =>
      isDraftCall(context)
        ? (options.draft ?? "# Deploy\n\n## Steps\n\n1. Run the deploy.")
        : (options.turn?.() ?? "Done."),
    gateway: {
      extensions: [
        autonomyExtension(),
        skillsExtension({ main: skills }),
        skillDrafterExtension({ agents: ["main"], skillsDirOf: () => options.skillsDir }),
      ],
    },
  });
}
