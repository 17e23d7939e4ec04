import type { SessionOwnership } from "@chorus/store";
import type { GoalKeeper } from "../goals/goal-keeper.js";
import type { GoalsThatMove } from "./owned-session-work.js";

/** The goal keeper's side of a takeover: what this instance owns decides which goals it drives. */
export function goalsThatMove(goals: GoalKeeper, ownership: SessionOwnership): GoalsThatMove {
  const owns = (sessionKey: string): boolean => ownership.fenceFor(sessionKey) !== undefined;
  return {
    resumeOwned: () => goals.resumeAll(owns, "takeover"),
    releaseNotOwned: () => goals.releaseNotOwned(owns),
  };
}
