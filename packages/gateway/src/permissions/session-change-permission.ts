import type { TrustTier } from "@chorus/store";
import type { SessionChange } from "../config/session-change-schema.js";

/** Who asks to change a session, as the command pipeline knows them where the command is typed. */
export interface SessionActor {
  readonly senderId: string;
  /** An admin of the channel account (owner tier). */
  readonly isAdmin: boolean;
}

/** Who answers for a run (a plan): their tier is what the run drops to when their words enter it. */
export interface RunAnswerBy extends SessionActor {
  readonly trust: TrustTier;
}

/**
 * Who asks for /stop: `all` (an admin, the DM's person, a member the group grants `stop`) stops the run and the
 * queue; `own` stops only what the sender started (their waiting messages, a run only their messages started).
 * Either way an autonomous goal pauses only for whoever started it or an admin.
 */
export interface StopBy extends SessionActor {
  readonly scope: "all" | "own";
}

/** Where the command is typed: a DM is its person's own session; a group's session is shared by its members. */
export interface ChangePlace {
  readonly chatType: "dm" | "group";
  /** What the group lets its members change (`membersMay`); empty in a DM and by default. */
  readonly membersMay: readonly SessionChange[];
}

/**
 * The change a builtin command makes to its chat's session, or undefined for one that only shows state (or is
 * governed by its own rule: approvals and plan answers go to who started the run, goals to who set them).
 * Contract: pure; the same classification for a typed command and a button carrying it.
 */
export function sessionChangeOf(command: string, args: readonly string[]): SessionChange | undefined {
  const first = args[0]?.toLowerCase();
  switch (command) {
    case "new":
    case "reset":
      return "new";
    case "stop":
      return "stop";
    case "compact":
      return "compact";
    case "queue":
      return first === undefined ? undefined : "queue";
    case "model":
      return first === undefined ? undefined : "model";
    default:
      return undefined;
  }
}

/**
 * Who may change a chat's shared session: admins anywhere; in a DM its own person; in a group its members only for
 * the changes the group grants them (`membersMay`, none by default).
 * Contract: pure; decided where the command is typed, from the sender's identity, before any cluster forwarding.
 */
export function mayChangeSession(
  change: SessionChange,
  actor: Pick<SessionActor, "isAdmin">,
  place: ChangePlace,
): boolean {
  if (actor.isAdmin || place.chatType === "dm") return true;
  return place.membersMay.includes(change);
}

/**
 * Who may answer for a run (a waiting plan, a tool approval) or stop it: the people whose messages started it, and
 * admins. A run nobody's message started (an autonomous goal's turn, a schedule) is the admins'.
 * Contract: pure.
 */
export function mayAnswerRun(
  actor: Pick<SessionActor, "senderId" | "isAdmin">,
  starterIds: readonly string[],
): boolean {
  return actor.isAdmin || starterIds.includes(actor.senderId);
}

/** The chat's answer to a refused session change: says who may, changes nothing. */
export function refusedChangeText(change: SessionChange): string {
  return `Only an admin can ${CHANGE_VERBS[change]} in this group.`;
}

const CHANGE_VERBS: Readonly<Record<SessionChange, string>> = {
  model: "switch this chat's model",
  queue: "change this chat's queue mode",
  memory: "switch memory on or off",
  plan: "switch plan mode on or off",
  new: "start a new conversation",
  stop: "stop everything here",
  compact: "compact this conversation",
};
