import { type ContextConfig, DEFAULT_RESERVE, ToolPairSummaryKeeper } from "@chorus/core";
import type { ExtensionStartContext, SessionAgentParts, SessionAgentStart } from "@chorus/gateway";
import type { ContextFeature } from "../context-feature.js";
import { SessionSettingWriter } from "../session-setting-writer.js";
import { checkContextModel } from "../unknown-context-model.js";
import { readStoredSummaries, TOOL_PAIR_SUMMARIES_SETTING } from "./stored-tool-pair-summaries.js";
import type { ToolPairSummariesSettings } from "./tool-pair-summaries-settings.js";

/** The budget kind of a summary call (a session's call: reserved and booked against its agent like a turn's). */
export const TOOL_PAIR_SUMMARY_PURPOSE = "tool_pair_summary";

/**
 * Seed 002's deferred tool-pair summaries for each session whose agent enables them: after each turn the new finished
 * pairs are summarised in the background through the gateway's StreamFn (`purpose: "tool_pair_summary"`, the
 * session's key as `sessionId`), kept in the session's settings, and handed to the loop, which applies them past the
 * soft threshold. Contract: a turn never waits for a summary; an unknown `model` fails the gateway's start; a threshold that does not lie below the compaction's
 * for the session's window is logged and the summaries are not applied (the session still works).
 */
export const toolPairSummariesFeature: ContextFeature = {
  name: "tool-pair summaries",
  settingsKey: TOOL_PAIR_SUMMARIES_SETTING,
  checkAtStart: (agentId, settings, context) => {
    if (settings.toolPairSummaries?.enabled !== true) return;
    checkContextModel(context, `agents.${agentId}.context.toolPairSummaries.model`, settings.toolPairSummaries.model);
  },
  sessionParts: (session, settings, context) => {
    const own = settings.toolPairSummaries;
    return own?.enabled ? toolPairSummaryParts(session, own, context) : undefined;
  },
};

function toolPairSummaryParts(
  session: SessionAgentStart,
  settings: ToolPairSummariesSettings,
  context: ExtensionStartContext,
): SessionAgentParts {
  const { sessionKey } = session;
  const log = context.logger;
  const writer = new SessionSettingWriter(context.store, sessionKey, TOOL_PAIR_SUMMARIES_SETTING, (error) =>
    log.warn({ sessionKey, err: (error as Error)?.message ?? String(error) }, "could not store tool-pair summaries"),
  );
  // Checked at start (checkAtStart): a configured model is in the catalog.
  const configured = settings.model === undefined ? undefined : context.findModel(settings.model);
  const keeper = new ToolPairSummaryKeeper({
    complete: (request, signal) =>
      context
        .streamFn(configured ?? session.model(), request, {
          signal,
          sessionId: sessionKey,
          purpose: TOOL_PAIR_SUMMARY_PURPOSE,
        })
        .result(),
    restore: readStoredSummaries(session.settings),
    onChange: (snapshot) => context.track(writer.write(snapshot)),
    logger: { warn: (fields, message) => log.warn({ sessionKey, ...fields }, message ?? "tool-pair summary") },
  });
  return {
    context: (given) => withSoftTier(given, keeper, settings, session, context),
    onEvent: (event, messages) => {
      // A run starts from the transcript as it is: summaries of calls no longer in it (compacted away) are dropped.
      if (event.type === "agent_start" || (event.type === "compaction" && event.kind === "summary")) {
        keeper.retain(event.type === "compaction" ? event.messages : messages);
      } else if (event.type === "turn_end" && event.toolResults.length > 0) {
        // Never awaited by the turn: the summaries are made off its path (the gateway's idle() waits for them).
        if (keeper.notePairs(messages) > 0) context.track(keeper.settled());
      }
    },
    release: () => {
      writer.close();
      keeper.close();
    },
  };
}

/** The context with the keeper as the soft tier, when its threshold lies below the compaction's for this window. */
function withSoftTier(
  given: ContextConfig,
  keeper: ToolPairSummaryKeeper,
  settings: ToolPairSummariesSettings,
  session: SessionAgentStart,
  context: ExtensionStartContext,
): ContextConfig {
  const window = given.window ?? session.model().contextWindow;
  const hard = window - (given.reserve ?? DEFAULT_RESERVE);
  if (settings.softThreshold * window >= hard) {
    context.logger.warn(
      { sessionKey: session.sessionKey, softThreshold: settings.softThreshold, window, compactAt: hard },
      "tool-pair summaries are not applied: the soft threshold does not lie below the compaction's",
    );
    return given;
  }
  return keeper.applyTo(given, { softThreshold: settings.softThreshold, keepRecent: settings.keepRecent });
}
