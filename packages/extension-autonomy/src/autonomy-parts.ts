import type { AgentConfig, ExtensionStartContext } from "@chorus/gateway";
import { agentOfSessionKey, describeError } from "@chorus/gateway";
import { GatewayBudgets } from "./budgets/gateway-budgets.js";
import { GoalKeeper } from "./goals/goal-keeper.js";
import { goalOf } from "./goals/goal-record.js";
import { Scheduler } from "./schedules/scheduler.js";

/** The autonomy extension's working parts, made when the gateway starts (they need its store, sessions and clock). */
export interface AutonomyParts {
  readonly goals: GoalKeeper;
  readonly budgets: GatewayBudgets;
  readonly schedules: Scheduler;
}

/** An agent's configuration as the gateway validated it; undefined for an agent no longer configured. */
export function agentConfigOf(context: ExtensionStartContext, agentId: string): AgentConfig | undefined {
  return context.config.agents.find((agent) => agent.id === agentId);
}

/**
 * Goals, budgets and schedules wired to one started gateway: goals' settings from each agent's config; the
 * supervisor's model is the agent's `goals.supervisorModel`, else the session's (the goal inference's:
 * `goals.inferenceModel`, else the supervisor's); a session cannot run a goal when its
 * agent is gone, autonomous goals are off for it, or its channel is not running; a model call counts against its
 * session's agent (and goal, schedule); a schedule runs at its session's owner, once.
 */
export function autonomyParts(context: ExtensionStartContext): AutonomyParts {
  const { store, logger, now, track } = context;
  const goals = new GoalKeeper({
    store,
    logger,
    now,
    streamFn: context.streamFn,
    configFor: (agentId) => agentConfigOf(context, agentId)?.goals,
    supervisorModel: (session) => {
      const id = agentConfigOf(context, session.agentId)?.goals.supervisorModel;
      return (id === undefined ? undefined : context.findModel(id)) ?? context.sessionModel(session);
    },
    inferenceModel: (session) => {
      const goals = agentConfigOf(context, session.agentId)?.goals;
      const id = goals?.inferenceModel ?? goals?.supervisorModel;
      return (id === undefined ? undefined : context.findModel(id)) ?? context.sessionModel(session);
    },
    cannotRun: (session) => {
      const agent = agentConfigOf(context, session.agentId);
      if (agent === undefined) return `its agent ${session.agentId} is no longer configured`;
      if (!agent.goals.enabled || !agent.goals.autonomousEnabled) {
        return `autonomous goals are now off for ${session.agentId}`;
      }
      if (!context.channelRunning(session.channel, session.accountId)) {
        return `its channel ${session.channel}/${session.accountId} is not running`;
      }
      return undefined;
    },
    accept: (session, item) => context.sessions.accept(session, item),
    stopTurn: (sessionKey) => context.sessions.stopTurn(sessionKey, "the goal was stopped"),
    withdraw: (sessionKey, message) => {
      context.sessions.withdraw(sessionKey, (item) => item.message === message);
    },
    notice: (sessionKey, _chat, text) => void context.chats.post(sessionKey, text),
    track,
  });
  const budgets = new GatewayBudgets({
    store,
    now,
    agentOf: (sessionKey) => agentOfSessionKey(sessionKey),
    goalOf: async (sessionKey, fresh) => {
      if (!fresh) return goals.goalOf(sessionKey);
      const session = await store.getSession(sessionKey);
      return session === undefined ? undefined : goalOf(session.settings);
    },
    budgetsFor: (agentId) => agentConfigOf(context, agentId)?.budgets,
    goalExhausted: (sessionKey, reason) => track(goals.budgetExhausted(sessionKey, reason)),
    // The scheduler is made below; these run at call time, once it exists.
    scheduleOf: (items) => schedules.scheduleOf(items),
    scheduleSpent: (id) => schedules.spent(id),
    scheduleExhausted: (id, reason) => track(schedules.exhausted(id, reason)),
    persist: (work) =>
      track(work.catch((error: unknown) => logger.error({ error: describeError(error) }, "spend not recorded"))),
  });
  const schedules = new Scheduler({
    store,
    logger,
    now,
    accept: (session, message, seq, senderId) =>
      context.sessions.accept(session, { message, seq, trust: "owner", source: "user", senderId }),
    freshSession: (sessionKey) => context.sessions.startFresh(sessionKey),
    notice: (session, text) => void context.chats.post(session.key, text),
    // In a cluster a schedule runs at the owner of its session (where that session's turns run), once.
    ...(store.ownership === undefined ? {} : { owns: (sessionKey: string) => context.owns(sessionKey) }),
  });
  return { goals, budgets, schedules };
}
