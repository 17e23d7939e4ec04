import type { GatewayBudgets } from "../budgets/gateway-budgets.js";
import type { RegisteredExtensions } from "../extension/index.js";
import type { GoalKeeper } from "../goals/goal-keeper.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import type { Scheduler } from "../schedules/scheduler.js";
import type { SessionTurnHooks } from "../turn-hooks/session-turn-hooks.js";
import { withExtensionHooks } from "./extension-wiring.js";

/** The features the gateway builds itself that act around each turn. */
export interface TurnFeatures {
  readonly goals: GoalKeeper;
  readonly budgets: GatewayBudgets;
  readonly schedules: Scheduler;
}

/**
 * The session runtimes' turn hooks, in the order they act: the goal's `{current_goal}` in the system prompt, then the
 * extensions' additions (long-term memory's recall among them); at a turn's start the budgets learn who started it and
 * the goals that it runs; at its end the schedules and goals, then the extensions hear it.
 * Contract: `features` are read at call time (the gateway builds some of them after its runtimes' deps).
 */
export function featureTurnHooks(
  features: () => TurnFeatures,
  logger: GatewayLogger,
  track: (work: Promise<unknown>) => void,
  extensions: RegisteredExtensions,
): SessionTurnHooks {
  const own: SessionTurnHooks = {
    systemPromptFor: (session, base) => features().goals.systemPromptFor(session, base),
    turnStarted: (start) => {
      features().budgets.turnStarted(start.sessionKey, start.items);
      features().goals.turnStarted(start);
    },
    turnEnded: (end) => {
      features().schedules.turnEnded(end);
      features().goals.turnEnded(end);
    },
  };
  return withExtensionHooks(own, extensions, logger, track);
}
