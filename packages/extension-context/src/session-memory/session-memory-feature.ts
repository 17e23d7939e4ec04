import { type AgentEvent, type AgentMessage, type ContextConfig, SessionMemory } from "@chorus/core";
import type { ExtensionStartContext, SessionAgentParts, SessionAgentStart } from "@chorus/gateway";
import type { ContextFeature } from "../context-feature.js";
import { SessionSettingWriter } from "../session-setting-writer.js";
import { checkContextModel } from "../unknown-context-model.js";
import type { SessionMemorySettings } from "./session-memory-settings.js";
import { readStoredSessionMemory, SESSION_MEMORY_SETTING } from "./stored-session-memory.js";

/**
 * Seed 004's tier-1 compaction for each session whose agent enables it: a `SessionMemory` per session, refreshed
 * after turns through the gateway's StreamFn (`purpose: "session_memory"`, the session's key as `sessionId`, so the
 * budget reserves it), kept in the session's settings under `sessionMemory`, and handed to the loop's compaction as
 * its tier 1. Contract: a turn never waits for a refresh; an unreadable stored summary is logged and a new one made;
 * an unknown `model` fails the gateway's start naming `agents.<id>.context.sessionMemory.model`.
 */
export const sessionMemoryFeature: ContextFeature = {
  name: "session memory",
  settingsKey: SESSION_MEMORY_SETTING,
  checkAtStart: (agentId, settings, context) => {
    if (settings.sessionMemory?.enabled !== true) return;
    checkContextModel(context, `agents.${agentId}.context.sessionMemory.model`, settings.sessionMemory.model);
  },
  sessionParts: (session, settings, context) => {
    const own = settings.sessionMemory;
    return own?.enabled ? sessionMemoryParts(session, own, context) : undefined;
  },
};

function sessionMemoryParts(
  session: SessionAgentStart,
  settings: SessionMemorySettings,
  context: ExtensionStartContext,
): SessionAgentParts {
  const { sessionKey } = session;
  const log = context.logger;
  const writer = new SessionSettingWriter(context.store, sessionKey, SESSION_MEMORY_SETTING, (error) =>
    log.warn({ sessionKey, err: (error as Error)?.message ?? String(error) }, "could not store the session memory"),
  );
  const stored = readStoredSessionMemory(session.settings, (error) =>
    log.warn({ sessionKey, err: error.message }, "the stored session memory is unreadable; a new one will be made"),
  );
  const configured = settings.model === undefined ? undefined : context.findModel(settings.model);
  const memory = new SessionMemory(
    {
      model: () => configured ?? session.model(),
      streamFn: context.streamFn,
      sessionId: sessionKey,
      minTokens: settings.minTokens,
      minToolCalls: settings.minToolCalls,
      minSavingsTokens: settings.minSavingsTokens,
      onChange: (snapshot) => context.track(writer.write(snapshot)),
      logger: { warn: (fields, message) => log.warn({ sessionKey, ...fields }, message ?? "session memory") },
    },
    stored,
  );
  return {
    context: (given: ContextConfig): ContextConfig => ({
      ...given,
      compaction: { ...given.compaction, sessionMemory: memory },
    }),
    onEvent: (event: AgentEvent, messages: readonly AgentMessage[]) => {
      memory.observe(event, messages);
      // Never awaited by the turn; the gateway's idle() (and its stop) waits for it.
      if (event.type === "turn_end" || event.type === "agent_end") context.track(memory.whenIdle());
    },
    release: () => {
      memory.release();
      writer.close();
    },
  };
}
