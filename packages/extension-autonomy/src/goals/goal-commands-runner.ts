import { randomUUID } from "node:crypto";
import type { GoalConfig } from "@chorus/gateway";
import type { SessionRecord } from "@chorus/store";
import { describeGoal } from "./describe-goal.js";
import type { GoalRequest } from "./goal-command-args.js";
import type { GoalCaller } from "./goal-keeper.js";
import { type AutonomousState, type GoalRecord, isLiveAutonomous } from "./goal-record.js";
import { type GoalChange, UNCHANGED } from "./goal-storage.js";
import { goalTexts } from "./goal-texts.js";

/** What the goal commands do to the keeper's state (the GoalKeeper implements it). */
export interface GoalCommandPort {
  now(): number;
  goal(sessionKey: string): Promise<GoalRecord | undefined>;
  update(sessionKey: string, change: (goal: GoalRecord | undefined) => GoalChange): Promise<GoalRecord | undefined>;
  session(sessionKey: string): Promise<SessionRecord | undefined>;
  configFor(agentId: string): GoalConfig | undefined;
  cannotRun(session: SessionRecord): string | undefined;
  startDriver(sessionKey: string, agentId: string, goal: GoalRecord): void;
  /** Ends the session's driver; `stopTurn`: its turn too. */
  haltDriver(sessionKey: string, stopTurn: boolean): void;
  /** The autonomous state of a goal that ends (or pauses) now. */
  ended(goal: GoalRecord, status: "stopped" | "paused" | "orphaned", note: string): AutonomousState;
}

/** Runs a parsed /goal, /done or /clear. Contract: resolves with the chat's answer; refusals store nothing. */
export async function runGoalCommand(port: GoalCommandPort, request: GoalRequest, caller: GoalCaller): Promise<string> {
  const key = caller.sessionKey;
  const goal = await port.goal(key);
  const mayControl = caller.isAdmin || (goal?.setBy !== undefined && goal.setBy === caller.senderId);
  const live = isLiveAutonomous(goal);
  switch (request.kind) {
    case "refused":
      return request.message;
    case "show":
      return describeGoal(goal);
    case "set":
    case "auto": {
      if (live) return `An autonomous goal is ${goal?.auto?.status} here; /goal stop ends it first.`;
      const at = port.now();
      const next: GoalRecord = {
        id: randomUUID(),
        text: request.text,
        status: "active",
        setAt: at,
        setBy: caller.senderId,
        ...(request.kind === "auto"
          ? {
              auto: {
                status: "running",
                maxTurns: request.turns,
                turns: 0,
                stuckCount: 0,
                supervisorFails: 0,
                trust: caller.trust,
                updatedAt: at,
              },
            }
          : {}),
      };
      await port.update(key, () => next);
      if (request.kind === "set") return goalTexts.set(request.text);
      const config = port.configFor(caller.agentId);
      port.startDriver(key, caller.agentId, next);
      return goalTexts.autoStarted(request.text, request.turns, config?.verifyInterval ?? 1);
    }
    case "done": {
      if (goal?.status !== "active") return "No active goal to complete. /goal <text> sets one.";
      if (live && !mayControl) return "Only whoever started this autonomous goal, or an admin, can complete it.";
      port.haltDriver(key, true);
      const done = await port.update(key, (current) =>
        current?.id === goal.id && current.status === "active"
          ? {
              ...current,
              status: "completed",
              completedAt: port.now(),
              completedBy: "command",
              ...(current.auto === undefined ? {} : { auto: port.ended(current, "stopped", "completed by /done") }),
            }
          : UNCHANGED,
      );
      return done === undefined ? goalTexts.none : goalTexts.completed(done, "/done");
    }
    case "clear": {
      if (goal === undefined) return "There is no goal to clear.";
      if (live && !mayControl) return "Only whoever started this autonomous goal, or an admin, can clear it.";
      port.haltDriver(key, true);
      await port.update(key, () => undefined);
      return goalTexts.cleared(goal);
    }
    case "stop":
    case "pause":
    case "resume":
      return (await controlGoal(port, request.kind, caller)).text;
    case "control":
      // The gateway finds the goal's chat first (see controlGoalById); here the id must be this chat's goal.
      if (goal === undefined || !goal.id.startsWith(request.goalId)) {
        return `No autonomous goal with id ${request.goalId} here.`;
      }
      return (await controlGoal(port, request.action, caller)).text;
  }
}

/**
 * Stops, pauses or resumes the session's autonomous goal, for whoever started it and admins.
 * Contract: `changed` says whether the goal's state changed (the answer explains why not).
 */
export async function controlGoal(
  port: GoalCommandPort,
  action: "stop" | "pause" | "resume",
  caller: GoalCaller,
): Promise<{ text: string; changed: boolean }> {
  const goal = await port.goal(caller.sessionKey);
  const mayControl = caller.isAdmin || (goal?.setBy !== undefined && goal.setBy === caller.senderId);
  const unchanged = (text: string) => ({ text, changed: false });
  const auto = goal?.status === "active" ? goal.auto : undefined;
  if (goal === undefined || auto === undefined)
    return unchanged("No autonomous goal here. /goal create --auto <text> starts one.");
  if (!mayControl) return unchanged(`Only whoever started this autonomous goal, or an admin, can ${action} it.`);
  const key = caller.sessionKey;
  if (action === "resume") {
    if (auto.status !== "paused" && auto.status !== "orphaned")
      return unchanged(`The autonomous goal is ${auto.status}; only a paused one resumes.`);
    const session = await port.session(key);
    const reason = session === undefined ? "its session is gone" : port.cannotRun(session);
    if (reason !== undefined) return unchanged(`The autonomous goal cannot resume: ${reason}.`);
    const resumed = await port.update(key, (current) =>
      current?.id === goal.id && current.auto !== undefined
        ? {
            ...current,
            auto: {
              ...current.auto,
              status: "running",
              supervisorFails: 0,
              note: `resumed by ${caller.senderId}`,
              updatedAt: port.now(),
            },
          }
        : UNCHANGED,
    );
    if (resumed?.auto?.status === "running") port.startDriver(key, caller.agentId, resumed);
    return { text: `Resumed the autonomous goal at turn ${auto.turns + 1} of ${auto.maxTurns}.`, changed: true };
  }
  if (auto.status !== "running" && !(action === "stop" && auto.status === "paused")) {
    return unchanged(`The autonomous goal is ${auto.status} already.`);
  }
  // A paused goal's driver counts the turn under way and then ends; a stopped one ends now, with its turn.
  if (action === "stop") port.haltDriver(key, true);
  const status = action === "stop" ? "stopped" : "paused";
  await port.update(key, (current) =>
    current?.id === goal.id && current.auto !== undefined
      ? { ...current, auto: port.ended(current, status, `${status} by ${caller.senderId}`) }
      : UNCHANGED,
  );
  const text =
    action === "stop"
      ? `Stopped the autonomous goal after ${auto.turns} turn(s).`
      : `Paused the autonomous goal after ${auto.turns} turn(s); /goal resume goes on.`;
  return { text, changed: true };
}
