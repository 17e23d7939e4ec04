import type { ExtensionStartContext, GatewayExtension } from "@chorus/gateway";
import { dropSessionSettings } from "@chorus/store";
import { combinedParts } from "./combined-parts.js";
import type { ContextFeature } from "./context-feature.js";
import { CONTEXT_FEATURES } from "./context-features.js";
import { type ContextSettings, contextSettingsSchema } from "./context-settings-schema.js";

/** What the context extension needs: each agent's settings. */
export interface ContextExtensionOptions {
  /**
   * Each agent's context settings by agent id (parsed with `contextSettingsSchema`); an agent not named has all off
   * (subgoal pruning, set in the gateway's `agents[].compaction`, still applies to it).
   */
  readonly agents: Readonly<Record<string, ContextSettings>>;
  /** The features to offer. Default: all of this package's (`CONTEXT_FEATURES`). */
  readonly features?: readonly ContextFeature[];
}

/**
 * Context management as a gateway extension: each session's Agent gets the parts its agent's settings (and, for
 * subgoal pruning, its gateway config) switch on, through the gateway's `sessionAgent` hook; their state is kept in the
 * session's settings, `/new` drops it, and `/status` shows their lines (`statusLines`). Contract: an agent without
 * settings, or with every feature off, and no `compaction.pruning`, runs exactly as without the extension.
 * @example
 * const context = contextExtension({ agents: { main: contextSettingsSchema.parse({}) } });
 * new Gateway({ ...options, extensions: [context] });
 */
export function contextExtension(options: ContextExtensionOptions): GatewayExtension {
  const features = options.features ?? CONTEXT_FEATURES;
  const keys = features.flatMap((feature) => (feature.settingsKey === undefined ? [] : [feature.settingsKey]));
  let started: ExtensionStartContext | undefined;
  return {
    name: "context",
    start: (context) => {
      // Every agent of the gateway too: a feature may be switched on by the agent's gateway config (subgoal pruning).
      const agentIds = new Set([...context.config.agents.map((agent) => agent.id), ...Object.keys(options.agents)]);
      for (const agentId of agentIds) {
        const { asked, settings } = featuresFor(options, features, agentId);
        for (const feature of asked) feature.checkAtStart?.(agentId, settings, context);
      }
      started = context;
    },
    sessionAgent: (session) => {
      const context = started;
      if (context === undefined) return undefined;
      const { asked, settings } = featuresFor(options, features, session.agentId);
      return combinedParts(asked.flatMap((feature) => feature.sessionParts(session, settings, context) ?? []));
    },
    statusLines: (session) => {
      const context = started;
      if (context === undefined) return [];
      const { asked, settings } = featuresFor(options, features, session.agentId);
      return asked.flatMap((feature) => feature.statusLines?.(session, settings, context) ?? []);
    },
    sessionEnding: async ({ sessionKey }) => {
      const context = started;
      if (context === undefined) return;
      // Each feature forgets what it keeps in memory first, so that nothing it writes later brings the state back.
      await Promise.all(features.map((feature) => feature.sessionEnding?.(sessionKey, context)));
      if (keys.length > 0) await dropSessionSettings(context.store, sessionKey, keys);
    },
  };
}

/** Settings with every feature off: an agent the options do not name (its gateway config may still switch one on). */
const ALL_OFF: ContextSettings = contextSettingsSchema.parse({});

/**
 * The features asked about an agent, with its settings: all of them, or for an agent the options do not name only
 * those its gateway config switches on (`byGatewayConfig`).
 */
function featuresFor(
  options: ContextExtensionOptions,
  features: readonly ContextFeature[],
  agentId: string,
): { readonly asked: readonly ContextFeature[]; readonly settings: ContextSettings } {
  const settings = options.agents[agentId];
  if (settings !== undefined) return { asked: features, settings };
  return { asked: features.filter((feature) => feature.byGatewayConfig === true), settings: ALL_OFF };
}
