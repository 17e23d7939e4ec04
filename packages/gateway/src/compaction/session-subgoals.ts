import {
  type CoreLogger,
  type Model,
  type StreamFn,
  SUBGOAL_REINSERT_TOKENS,
  type SubgoalSnapshot,
  SubgoalTracker,
} from "@chorus/core";
import type { SessionStore, StoredJson } from "@chorus/store";
import type { CompactionSettings } from "../config/compaction-config.js";
import { dropSessionSettings } from "./drop-session-settings.js";

/** The session setting that holds its subgoal registry, so a session released while idle picks it up again. */
export const SUBGOALS_SETTING = "subgoals";

/** What a session's subgoal tracker needs from the gateway. */
export interface SessionSubgoalDeps {
  sessionKey: string;
  /** The stored registry (`settings.subgoals`), if any. */
  stored: unknown;
  /** The session's current model (used when no `subgoalModel` is configured). */
  model(): Model;
  resolveModel(id: string): Model | undefined;
  streamFn: StreamFn;
  store: Pick<SessionStore, "transaction">;
  logger: CoreLogger;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
}

/**
 * A session's subgoal tracker, or undefined when the agent uses no subgoal pruning strategy (the default).
 * Contract: the extraction goes through the gateway's StreamFn (so budgets count it) on `subgoalModel` if it is
 * known, else the session's model; the registry is restored from and written back to the session's settings.
 */
export function sessionSubgoalTracker(
  settings: CompactionSettings,
  deps: SessionSubgoalDeps,
): SubgoalTracker | undefined {
  const strategy = settings.pruning[0];
  if (strategy === undefined) return undefined;
  const tracker = new SubgoalTracker({
    strategy,
    complete: (context) => {
      const configured = settings.subgoalModel === undefined ? undefined : deps.resolveModel(settings.subgoalModel);
      return deps.streamFn(configured ?? deps.model(), context).result();
    },
    // A quarter of the current model's window at most, so the re-inserted subgoal leaves room to work.
    maxReinsertTokens: () => Math.min(SUBGOAL_REINSERT_TOKENS, Math.floor(deps.model().contextWindow / 4)),
    onChange: (registry) => deps.track(storeSubgoals(deps, registry.snapshot())),
    logger: deps.logger,
  });
  tracker.registry.restore(deps.stored);
  return tracker;
}

/** Writes the registry into the session's settings (read again in the transaction: others change them too). */
async function storeSubgoals(deps: SessionSubgoalDeps, snapshot: SubgoalSnapshot): Promise<void> {
  try {
    await deps.store.transaction(async (tx) => {
      const session = await tx.getSession(deps.sessionKey);
      if (session === undefined) return;
      const value = JSON.parse(JSON.stringify(snapshot)) as StoredJson;
      await tx.updateSession(deps.sessionKey, { settings: { ...session.settings, [SUBGOALS_SETTING]: value } });
    });
  } catch (error) {
    deps.logger.warn({ sessionKey: deps.sessionKey, error: (error as Error).message }, "could not store subgoals");
  }
}

/** Drops a session's stored subgoals (a new conversation started while its runtime was not in memory). */
export function forgetStoredSubgoals(store: Pick<SessionStore, "transaction">, sessionKey: string): Promise<void> {
  return dropSessionSettings(store, sessionKey, [SUBGOALS_SETTING]);
}
