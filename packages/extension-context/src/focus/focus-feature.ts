import { FocusStrategy, resolveFocusSettings } from "@chorus/core";
import type { ExtensionStartContext, SessionAgentParts, SessionAgentStart } from "@chorus/gateway";
import type { ContextFeature } from "../context-feature.js";
import type { ContextSettings } from "../context-settings-schema.js";
import { SessionSettingWriter } from "../session-setting-writer.js";
import type { FocusFeatureSettings } from "./focus-settings.js";
import { FOCUS_SETTING, readStoredFocus } from "./stored-focus.js";

/** Focus is on for an agent whose compaction also uses a subgoal pruning strategy: the two are exclusive. */
export class ExclusiveCompressionStrategiesError extends Error {
  override readonly name = "ExclusiveCompressionStrategiesError";
  constructor(
    readonly agentId: string,
    readonly pruning: readonly string[],
  ) {
    super(
      `agent "${agentId}": the focus strategy (context.focus) and subgoal pruning (compaction.pruning: ` +
        `${pruning.join(", ")}) are mutually exclusive compression strategies; enable only one`,
    );
  }
}

/**
 * Seed 002's Focus strategy for each session whose agent enables it: the `start_focus` / `complete_focus` tools, the
 * reduction of completed segments in the session's context, the auto-consolidation every `autoConsolidateMinWindow`
 * turns (no model call), and the state kept in the session's `focus` setting. Contract: refuses at start an agent that
 * also prunes by subgoals (ExclusiveCompressionStrategiesError) or whose settings core refuses (FocusConfigError, e.g.
 * a window of 0); a turn never waits for a consolidation or a write.
 */
export const focusFeature: ContextFeature = {
  name: "focus",
  settingsKey: FOCUS_SETTING,
  checkAtStart: (agentId, settings, context) => checkAtStart(agentId, settings, context),
  sessionParts: (session, settings, context) => {
    const own = settings.focus;
    return own?.enabled ? focusParts(session, own, context) : undefined;
  },
};

function checkAtStart(agentId: string, settings: ContextSettings, context: ExtensionStartContext): void {
  if (!settings.focus?.enabled) return;
  // Settings not parsed by the schema (a program's own) still fail the start, not the session's first message.
  resolveFocusSettings(settings.focus);
  const agent = context.config.agents.find((candidate) => candidate.id === agentId);
  const pruning = agent?.compaction.pruning ?? [];
  if (pruning.length > 0) throw new ExclusiveCompressionStrategiesError(agentId, pruning);
}

function focusParts(
  session: SessionAgentStart,
  settings: FocusFeatureSettings,
  context: ExtensionStartContext,
): SessionAgentParts {
  const { sessionKey } = session;
  const log = context.logger;
  const state = readStoredFocus(session.settings, (error) =>
    log.warn(
      { sessionKey, err: (error as Error)?.message ?? String(error) },
      "unreadable focus state: starting afresh",
    ),
  );
  const writer = new SessionSettingWriter(context.store, sessionKey, FOCUS_SETTING, (error) =>
    log.warn({ sessionKey, err: (error as Error)?.message ?? String(error) }, "could not store the focus state"),
  );
  const strategy = new FocusStrategy({
    state,
    autoConsolidateMinWindow: settings.autoConsolidateMinWindow,
    similarityThreshold: settings.similarityThreshold,
    maxKnowledgeChars: settings.maxKnowledgeChars,
    onChange: (changed) => context.track(writer.write(changed.snapshot())),
    logger: { warn: (fields, message) => log.warn({ sessionKey, ...fields }, message ?? "focus") },
  });
  return {
    context: (given) => strategy.applyTo(given),
    tools: strategy.tools,
    onEvent: (event) => {
      strategy.onEvent(event);
      // A consolidation the turn's end started runs in the background; the gateway's idle() waits for it.
      if (event.type === "agent_end") context.track(strategy.settled());
    },
    release: () => {
      writer.close();
      strategy.close();
    },
  };
}
