import type { StreamFn } from "@chorus/core";
import type { ExtensionStartContext, GatewayExtension } from "@chorus/gateway";
import { describeError } from "@chorus/gateway";
import { type AutonomyParts, autonomyParts } from "./autonomy-parts.js";
import { autonomySections } from "./autonomy-sections.js";
import { autonomyCommands } from "./commands/autonomy-commands.js";
import { AUTONOMY_COMMAND_PERMISSIONS } from "./commands/autonomy-permissions.js";
import { goalStatusLines } from "./goals/describe-goal.js";
import { answerGoalControl, GOAL_CONTROL_CALL, type GoalControlCall } from "./goals/goal-control-by-id.js";
import { CURRENT_GOAL_PLACEHOLDER } from "./goals/goal-keeper.js";
import { goalOf, goalRunsItself } from "./goals/goal-record.js";

/** `autonomyExtension` options. */
export interface AutonomyOptions {
  /** How often due schedules are looked for. Default 1000 ms. */
  readonly scheduleTickMs?: number;
}

/** The autonomy extension, with what a program (or a test that moves its clock) may call directly. */
export interface AutonomyExtension extends GatewayExtension {
  /**
   * Runs every schedule due by the gateway's clock now (the extension's timer calls it every `scheduleTickMs`).
   * Contract: resolves with how many ran; 0 before the gateway started or once it stops; a failure is logged.
   */
  runDueSchedules(): Promise<number>;
}

/**
 * Goals, schedules and budgets as one gateway extension (docs/goals.md): session goals with `{current_goal}`,
 * completion phrases, goals inferred from the conversation (`goals.inferFromConversation`, informational only) and
 * autonomous goals (their drivers, supervisor, resumption after a restart and a takeover);
 * `/schedule` prompts run at a time, an interval or by cron; budgets per agent-day, per goal and per schedule, every
 * model call of a session reserved first (give this extension first: its `wrapStreamFn` is then the outermost, and
 * every other extension's calls are reserved too) and booked per kind; `/goal`, `/done`, `/clear`, `/usage`,
 * `/schedule` and the "goal" and "schedules" sections of `/agents`. Contract: a stored goal or schedule that cannot be
 * read is logged and skipped, never stopping the gateway's start; spend that cannot be recorded is logged.
 *
 * @example
 * const autonomy = autonomyExtension();
 * new Gateway({ ...options, extensions: [autonomy, memoryExtension(memory)] });
 */
export function autonomyExtension(options: AutonomyOptions = {}): AutonomyExtension {
  let started: { context: ExtensionStartContext; parts: AutonomyParts } | undefined;
  let running = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const budgeted = new WeakMap<StreamFn, StreamFn>();
  const startedAutonomy = () => started;

  const runDueSchedules = async (): Promise<number> => {
    if (!running || started === undefined) return 0;
    try {
      return await started.parts.schedules.runDue();
    } catch (error) {
      started.context.logger.error({ error: describeError(error) }, "running due schedules failed");
      return 0;
    }
  };
  const startStep = async (what: string, step: () => Promise<void>): Promise<void> => {
    try {
      await step();
    } catch (error) {
      started?.context.logger.error({ error: describeError(error) }, `${what} failed at start: skipped`);
    }
  };

  return {
    name: "autonomy",
    commandPermissions: AUTONOMY_COMMAND_PERMISSIONS,
    commands: autonomyCommands(startedAutonomy),
    agentsSections: autonomySections(startedAutonomy),
    // Every call of a session is reserved against its budgets once the gateway started (none is made before).
    wrapStreamFn: (next) => (model, context, streamOptions) => {
      const budgets = started?.parts.budgets;
      if (budgets === undefined) return next(model, context, streamOptions);
      let wrapped = budgeted.get(next);
      if (wrapped === undefined) {
        wrapped = budgets.budgeted(next);
        budgeted.set(next, wrapped);
      }
      return wrapped(model, context, streamOptions);
    },
    start: (context) => {
      started = { context, parts: autonomyParts(context) };
      // Spend of calls no budget limits is written on the heartbeat, in one batch, not per message.
      const budgets = started.parts.budgets;
      context.store.ownership?.everyBeat?.(() => budgets.flushSpend());
    },
    started: async () => {
      if (started === undefined) return;
      const { context, parts } = started;
      running = true;
      // In a cluster, each instance resumes the goals of the sessions it owns at start; later they move with their
      // sessions (`ownershipChanged`).
      await startStep("resuming autonomous goals", () =>
        parts.goals.resumeAll((sessionKey) => context.owns(sessionKey)),
      );
      // Runs missed while the gateway was down are told to their owners once (not run), then due ones run on a timer.
      await startStep("reporting missed schedules", () => parts.schedules.reportMissed());
      timer = setInterval(() => void runDueSchedules(), options.scheduleTickMs ?? 1000);
      timer.unref?.();
    },
    resumesItself: (session) => goalRunsItself(session),
    ownershipChanged: async (change) => {
      if (started === undefined) return;
      const { context, parts } = started;
      const owns = (sessionKey: string) => context.owns(sessionKey);
      // Running autonomous goals of the sessions taken over go on here; those of sessions lost stop here.
      if (change.type === "gained") await parts.goals.resumeAll(owns, "takeover");
      else parts.goals.releaseNotOwned(owns);
    },
    answerAtOwner: async (call) => {
      if (call.name !== GOAL_CONTROL_CALL || started === undefined) return undefined;
      return answerGoalControl(started.parts.goals, call.payload as GoalControlCall);
    },
    // Most prompts hold no `{current_goal}`: answered at once, without a goal read.
    systemPrompt: (session, prompt) =>
      prompt?.includes(CURRENT_GOAL_PLACEHOLDER) === true
        ? started?.parts.goals.systemPromptFor({ key: session.sessionKey, agentId: session.agentId }, prompt)
        : undefined,
    // The session's goal (explicit or inferred, active or completed) in /status, from the settings given: no read.
    statusLines: (session) => goalStatusLines(goalOf(session.settings)),
    turnStarted: (turn) => {
      if (started === undefined) return;
      started.parts.budgets.turnStarted(turn.sessionKey, turn.items);
      started.parts.goals.turnStarted(turn);
    },
    afterTurn: (turn) => {
      if (started === undefined) return;
      const end = {
        sessionKey: turn.sessionKey,
        agentId: turn.agentId,
        chat: turn.chat,
        items: turn.items,
        result: turn.result,
      };
      started.parts.schedules.turnEnded(end);
      started.parts.goals.turnEnded(end);
    },
    endRefusal: async (sessionKey, actor) => {
      if (started === undefined || (await started.parts.goals.mayEndAutonomous(sessionKey, actor))) return undefined;
      return "An autonomous goal someone else started runs here: only they or an admin can start a new conversation.";
    },
    sessionStopped: async (sessionKey) => started?.parts.goals.sessionStopped(sessionKey) ?? false,
    sessionEnding: async ({ sessionKey }) => {
      await started?.parts.goals.sessionReset(sessionKey);
    },
    stopping: () => {
      running = false;
      if (timer !== undefined) clearInterval(timer);
      // Autonomous goals start no more turns; they stay running in the store, and the next start resumes them.
      started?.parts.goals.halt();
    },
    turnsOver: () => started?.parts.goals.release(),
    // Spend still queued for the next heartbeat is written now, while the store is open.
    stop: () => started?.parts.budgets.flushSpend(),
    runDueSchedules,
  };
}
