import type { ExtensionStartContext, SessionAgentParts, SessionAgentStart, StatusSession } from "@chorus/gateway";
import type { ContextSettings } from "./context-settings-schema.js";

/**
 * One context-management feature of the extension (e.g. the kept session summary): what it adds to a session's Agent
 * and what it drops when a session starts afresh. Contract: `sessionParts` returns undefined when the agent's settings
 * leave the feature off; it must not throw for stored state it cannot read (it starts afresh instead).
 */
export interface ContextFeature {
  readonly name: string;
  /**
   * Switched on by the agent's gateway config (e.g. `compaction.pruning`), not by its context settings: asked about
   * every agent of the gateway, also one the extension's options do not name (the others are not).
   */
  readonly byGatewayConfig?: boolean;
  /** The session settings key its stored state lives under (dropped on `/new`), if it stores any. */
  readonly settingsKey?: string;
  /** Checks one agent's settings against the started gateway (e.g. a model id in its catalog); a throw fails the start. */
  checkAtStart?(agentId: string, settings: ContextSettings, context: ExtensionStartContext): void;
  sessionParts(
    session: SessionAgentStart,
    settings: ContextSettings,
    context: ExtensionStartContext,
  ): SessionAgentParts | undefined;
  /** The session starts afresh (`/new`), before its stored state is dropped: forget what is kept in memory. */
  sessionEnding?(sessionKey: string, context: ExtensionStartContext): void | Promise<void>;
  /** Lines the feature adds to `/status` of a session (where its turns run); none when the feature is off. */
  statusLines?(session: StatusSession, settings: ContextSettings, context: ExtensionStartContext): readonly string[];
}
