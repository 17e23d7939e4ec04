import type { Channel } from "@chorus/channel";
import type { StreamFn } from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import type { ChatNotices } from "../delivery/chat-notices.js";
import { GoalKeeper } from "../goals/goal-keeper.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { findChosenModel, restoredModelChoice } from "../model-preference/model-preference.js";
import type { ModelCatalog } from "./gateway-options.js";
import type { PreparedAgent } from "./prepare-agent.js";
import type { SessionRegistry } from "./session-registry.js";

/** The gateway's parts a GoalKeeper is wired to. */
export interface GatewayGoalParts {
  readonly store: SessionStore;
  readonly logger: GatewayLogger;
  readonly now: () => number;
  readonly streamFn: StreamFn;
  readonly models: ModelCatalog;
  readonly agents: ReadonlyMap<string, PreparedAgent>;
  readonly notices: ChatNotices;
  /** The registry is built after the keeper (its runtimes take the keeper's turn hooks). */
  sessions(): SessionRegistry;
  channelFor(channel: string, accountId: string): Channel | undefined;
  track(work: Promise<unknown>): void;
}

/**
 * The Gateway's GoalKeeper: goal settings from each prepared agent; the supervisor's model is the agent's
 * `goals.supervisorModel`, else the session's (its /model override, else the agent's); a session cannot run when its
 * agent is gone, autonomous goals are off for it, or its channel is not running.
 */
export function createGatewayGoalKeeper(parts: GatewayGoalParts): GoalKeeper {
  const { agents, models } = parts;
  return new GoalKeeper({
    store: parts.store,
    logger: parts.logger,
    now: parts.now,
    streamFn: parts.streamFn,
    configFor: (agentId) => agents.get(agentId)?.config.goals,
    supervisorModel: (session) => {
      const prepared = agents.get(session.agentId) ?? agents.values().next().value!;
      const override = findChosenModel(models, restoredModelChoice(prepared.config, session, models));
      return prepared.supervisorModel ?? override ?? prepared.defaultModel;
    },
    cannotRun: (session) => {
      const prepared = agents.get(session.agentId);
      if (prepared === undefined) return `its agent ${session.agentId} is no longer configured`;
      const goals = prepared.config.goals;
      if (!goals.enabled || !goals.autonomousEnabled) return `autonomous goals are now off for ${session.agentId}`;
      if (parts.channelFor(session.channel, session.accountId) === undefined) {
        return `its channel ${session.channel}/${session.accountId} is not running`;
      }
      return undefined;
    },
    accept: (session, item) => parts.sessions().runtimeFor(session).accept(item),
    stopTurn: (sessionKey) => void parts.sessions().get(sessionKey)?.stop("user", "the goal was stopped"),
    withdraw: (sessionKey, message) => {
      parts
        .sessions()
        .get(sessionKey)
        ?.lane.withdraw((item) => item.message === message);
    },
    notice: (sessionKey, chat, text) => void parts.notices.post(sessionKey, chat, text),
    track: parts.track,
  });
}
