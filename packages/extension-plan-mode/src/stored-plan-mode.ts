import { dropSessionSettings, type SessionStore, type StoredJson, writeSessionSetting } from "@chorus/store";
import { z } from "zod";

/** The session setting that keeps a session's plan mode and its plan across idle, a restart and a takeover. */
export const PLAN_MODE_SETTING = "planMode";

/** The plan a session in plan mode proposed last, with who may answer it (who started the run that proposed it). */
export interface StoredPlan {
  readonly text: string;
  readonly state: "waiting" | "rejected";
  readonly feedback?: string;
  readonly starterIds: readonly string[];
}

/** A session in plan mode (a session not in plan mode has none): the plan it proposed last, if any. */
export interface PlanModeState {
  readonly plan?: StoredPlan;
}

const storedSchema = z.object({
  version: z.literal(1),
  plan: z
    .object({
      text: z.string(),
      state: z.enum(["waiting", "rejected"]),
      feedback: z.string().optional(),
      starterIds: z.array(z.string()),
    })
    .optional(),
});

/** Where sessions' plan mode is kept. */
export interface PlanModeStorage {
  /** The session's plan mode as stored; undefined: not in plan mode. */
  load(sessionKey: string): Promise<PlanModeState | undefined>;
  /** Stores the session's plan mode; undefined drops it. */
  save(sessionKey: string, state: PlanModeState | undefined): Promise<void>;
}

/** Storage that keeps nothing (plan mode then lives in memory only): a `PlanModeSessions` without a store. */
export const NO_PLAN_MODE_STORAGE: PlanModeStorage = {
  load: async () => undefined,
  save: async () => {},
};

/**
 * A session's plan mode from its stored settings. Contract: never throws; nothing stored is "not in plan mode";
 * something unreadable is plan mode without a plan (the safer side: only information tools run until `/plan off`),
 * and `onUnreadable` hears why.
 */
export function readPlanMode(
  settings: Readonly<Record<string, unknown>>,
  onUnreadable: (error: Error) => void,
): PlanModeState | undefined {
  const stored = settings[PLAN_MODE_SETTING];
  if (stored === undefined) return undefined;
  const parsed = storedSchema.safeParse(stored);
  if (parsed.success) {
    const plan = parsed.data.plan;
    if (plan === undefined) return {};
    const feedback = plan.feedback === undefined ? {} : { feedback: plan.feedback };
    return { plan: { text: plan.text, state: plan.state, starterIds: plan.starterIds, ...feedback } };
  }
  onUnreadable(new Error(`the stored plan mode is unreadable: ${parsed.error.issues[0]?.message ?? "bad shape"}`));
  return {};
}

/**
 * Plan mode kept in the sessions' settings of `store()` (the gateway's, known once it started; before that nothing is
 * read or written). Contract: `save` rejects when the store does; nothing is written for a session that is gone.
 * @example const storage = storedPlanModes(() => started?.store, (error) => logger.warn({ error }, "plan mode"));
 */
export function storedPlanModes(
  store: () => Pick<SessionStore, "transaction" | "getSession"> | undefined,
  onUnreadable: (error: Error) => void,
): PlanModeStorage {
  return {
    load: async (sessionKey) => {
      const session = await store()?.getSession(sessionKey);
      return readPlanMode(session?.settings ?? {}, onUnreadable);
    },
    save: async (sessionKey, state) => {
      const target = store();
      if (target === undefined) return;
      if (state === undefined) return dropSessionSettings(target, sessionKey, [PLAN_MODE_SETTING]);
      const value: StoredJson =
        state.plan === undefined
          ? { version: 1 }
          : {
              version: 1,
              plan: {
                text: state.plan.text,
                state: state.plan.state,
                ...(state.plan.feedback === undefined ? {} : { feedback: state.plan.feedback }),
                starterIds: [...state.plan.starterIds],
              },
            };
      await writeSessionSetting(target, sessionKey, PLAN_MODE_SETTING, value);
    },
  };
}
