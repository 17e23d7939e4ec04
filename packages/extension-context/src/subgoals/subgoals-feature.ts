import { SUBGOAL_REINSERT_TOKENS, SubgoalTracker } from "@chorus/core";
import {
  type ExtensionStartContext,
  isBudgetRefusal,
  type SessionAgentParts,
  type SessionAgentStart,
} from "@chorus/gateway";
import type { ContextFeature } from "../context-feature.js";
import { SessionSettingWriter } from "../session-setting-writer.js";
import { checkContextModel } from "../unknown-context-model.js";
import { type LiveSubgoals, liveSubgoalTrackersOf } from "./live-subgoal-trackers.js";
import { readStoredSubgoals, SUBGOALS_SETTING } from "./stored-subgoals.js";
import { type SubgoalPruning, subgoalPruningOf } from "./subgoal-pruning-of.js";

/** The `purpose` of the extraction calls, as budgets reserve and book them. */
export const SUBGOALS_PURPOSE = "subgoals";

/**
 * Seed 002's subgoal-aware pruning (HiAgent) for each session whose agent's gateway config sets
 * `compaction.pruning: [subgoal]` or `[subgoal_mig]`: after each turn (not one a budget refused: it made no call) a
 * fire-and-forget extraction through the gateway's StreamFn (`purpose: "subgoals"`, the session's key as `sessionId`,
 * on `compaction.subgoalModel` else the session's model) names the active subgoal; micro-compaction never clears its
 * tool results and a hard compaction re-inserts its messages. The registry is kept in the session's `subgoals`
 * setting; `/status` shows `**Subgoal** <description>` (or `none yet`). Contract: a turn never waits for an
 * extraction; an unknown `subgoalModel` fails the start (UnknownContextModelError naming
 * `agents.<id>.compaction.subgoalModel`); `/new` forgets the registry and drops an extraction under way.
 */
export const subgoalsFeature: ContextFeature = {
  name: "subgoals",
  byGatewayConfig: true,
  settingsKey: SUBGOALS_SETTING,
  checkAtStart: (agentId, _settings, context) => {
    const model = context.config.agents.find((agent) => agent.id === agentId)?.compaction.subgoalModel;
    checkContextModel(context, `agents.${agentId}.compaction.subgoalModel`, model);
  },
  sessionParts: (session, _settings, context) => {
    const pruning = subgoalPruningOf(context, session.agentId);
    return pruning === undefined ? undefined : subgoalParts(session, pruning, context);
  },
  statusLines: (session, _settings, context) => {
    if (subgoalPruningOf(context, session.agentId) === undefined) return [];
    // Where the session's turns run (the gateway asks there): its tracker, if in memory, knows the latest reading.
    const live = liveSubgoalTrackersOf(context).newest(session.sessionKey);
    const active =
      live === undefined
        ? readStoredSubgoals(session.settings).activeSubgoal()?.description
        : live.tracker.activeSubgoal;
    return [`**Subgoal** ${active ?? "none yet"}`];
  },
  sessionEnding: async (sessionKey, context) => {
    const taken = liveSubgoalTrackersOf(context).take(sessionKey);
    for (const { tracker, writer } of taken) {
      writer.close();
      tracker.reset(); // drops an extraction under way: its reading is of the conversation that ended
    }
    // A write already under way lands before the stored registry is dropped, not after.
    await Promise.all(taken.map(({ writer }) => writer.idle()));
  },
};

function subgoalParts(
  session: SessionAgentStart,
  pruning: SubgoalPruning,
  context: ExtensionStartContext,
): SessionAgentParts {
  const { sessionKey } = session;
  const log = context.logger;
  const configured = pruning.subgoalModel === undefined ? undefined : context.findModel(pruning.subgoalModel);
  const writer = new SessionSettingWriter(context.store, sessionKey, SUBGOALS_SETTING, (error) =>
    log.warn({ sessionKey, err: (error as Error)?.message ?? String(error) }, "could not store subgoals"),
  );
  const tracker = new SubgoalTracker({
    strategy: pruning.strategy,
    complete: (request) =>
      context
        .streamFn(configured ?? session.model(), request, { sessionId: sessionKey, purpose: SUBGOALS_PURPOSE })
        .result(),
    // A quarter of the current model's window at most, so the re-inserted subgoal leaves room to work.
    maxReinsertTokens: () => Math.min(SUBGOAL_REINSERT_TOKENS, Math.floor(session.model().contextWindow / 4)),
    onChange: (registry) => context.track(writer.write(registry.snapshot())),
    logger: { warn: (fields, message) => log.warn({ sessionKey, ...fields }, message ?? "subgoals") },
  });
  tracker.registry.restore(session.settings[SUBGOALS_SETTING]);
  const live: LiveSubgoals = { tracker, writer };
  const trackers = liveSubgoalTrackersOf(context);
  trackers.add(sessionKey, live);
  return {
    context: (given) => tracker.applyTo(given),
    onEvent: (event, messages) => {
      // Never awaited: the next turn does not wait for the extraction. A turn a budget refused made no call, and
      // causes none.
      if (event.type === "agent_end" && !isBudgetRefusal(event.error)) tracker.refreshAfterTurn(messages);
    },
    release: () => {
      // Let go while idle: an extraction under way still lands in the settings, then the tracker leaves memory.
      void tracker
        .settled()
        .then(() => writer.idle())
        .then(() => trackers.remove(sessionKey, live));
    },
  };
}
