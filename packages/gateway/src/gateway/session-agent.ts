import {
  Agent,
  type AgentLoopConfig,
  type AgentMessage,
  type AnyAgentTool,
  type ContextConfig,
  changedReadFilesReminder,
  type Model,
  type RemindersConfig,
  type StreamFn,
} from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import type { Span } from "@opentelemetry/api";
import { sessionContextOptions } from "../compaction/session-context-options.js";
import { type ReminderConfig, remindersFromConfig } from "../config/reminder-config.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { agentTelemetry } from "../telemetry/agent-telemetry.js";
import type { GatewayTelemetryOptions } from "../telemetry/telemetry-options.js";
import type { SessionAgentParts, SessionTurnHooks } from "../turn-hooks/session-turn-hooks.js";
import type { PreparedAgent } from "./prepare-agent.js";

/** The gateway's settings every session's Agent gets. */
export interface SessionAgentDeps {
  readonly logger: GatewayLogger;
  readonly store: Pick<SessionStore, "getSession">;
  readonly turnHooks?: Pick<SessionTurnHooks, "sessionAgent">;
  readonly loop:
    | Omit<Partial<AgentLoopConfig>, "model" | "streamFn" | "tools" | "run" | "preDispatchPolicies">
    | undefined;
  readonly streamFn: StreamFn;
  readonly telemetry?: GatewayTelemetryOptions;
}

/** What one session's Agent is built from, besides the gateway's and the agent's settings. */
export interface SessionAgentInputs {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly model: Model;
  /** The history: the stored transcript without the messages not answered yet. */
  readonly messages: readonly AgentMessage[];
  /** The run's meta, read by the policies at call time (trust tier, group tool policy). */
  readonly meta: Record<string, unknown>;
  /** The id of the run about to start (the turn chose it). */
  newRunId(): string;
  /** Holds a tool call until the message calling it is stored. */
  callStored(toolCallId: string, signal: AbortSignal): Promise<undefined>;
  /** The turn's `invoke_agent` span, taken by the run when it starts. */
  runSpan(): Span | undefined;
  /** What the extensions add to this session's Agent (context layers, reminders, tools, event listeners). */
  readonly extensions: readonly SessionAgentParts[];
  /** Links the Agent to the agent's sub-agents; the returned function unlinks it. */
  linkSubagents(agent: Agent): (() => void) | undefined;
}

/** A session's Agent, the tools its turns start from, and what lets the extensions' parts go with it. */
export interface SessionAgentBuilt {
  readonly agent: Agent;
  /** The agent's tools and the extensions' session tools: what each turn's tool hooks narrow. */
  readonly tools: readonly AnyAgentTool[];
  /** Unlinks the sub-agents, unsubscribes the extensions' listeners and releases their parts (the Agent is let go). */
  release(): void;
}

/**
 * A session's Agent: the gateway's loop settings, then the agent's (features, system prompt, tools, policies, hooks,
 * reminders), then the extensions' session parts, on the session's model and history, linked to its sub-agents.
 * Contract: the caller calls `release` when it lets the Agent go; a throwing listener is logged and ignored.
 */
export function buildSessionAgent(
  deps: SessionAgentDeps,
  prepared: PreparedAgent,
  parts: SessionAgentInputs,
): SessionAgentBuilt {
  const added = parts.extensions;
  const tools = [...prepared.tools, ...added.flatMap((part) => part.tools ?? [])];
  const agent = new Agent({
    // The loop's own warnings (a failing post_tool_use hook, a reminder source) go to the gateway's log.
    logger: deps.logger,
    ...deps.loop,
    ...prepared.loopFeatures,
    model: parts.model,
    streamFn: deps.streamFn,
    ...(prepared.config.systemPrompt === undefined ? {} : { systemPrompt: prepared.config.systemPrompt }),
    messages: [...parts.messages],
    // After the spreads above: their `context` layers are merged here, not overridden one by another.
    ...withExtensionContext(sessionContextOptions(deps.loop?.context, prepared.loopFeatures.context), added),
    tools: [...tools],
    preDispatchPolicies: [(ctx) => parts.callStored(ctx.toolCall.id, ctx.signal), ...prepared.policies],
    run: { depth: 0, sessionId: parts.sessionKey, meta: parts.meta, newRunId: parts.newRunId },
    telemetry: agentTelemetry(deps, parts.agentId, parts.sessionKey, parts.runSpan),
    ...optionalReminders(prepared.config.reminders, [...changedFiles(prepared, parts.sessionKey), ...added]),
    ...(prepared.hooks === undefined ? {} : { hooks: prepared.hooks }),
  });
  const listeners = added.filter((part) => part.onEvent !== undefined);
  const unsubscribe =
    listeners.length === 0
      ? undefined
      : agent.subscribe((event) => {
          for (const part of listeners) {
            try {
              part.onEvent?.(event, agent.state.messages);
            } catch (error) {
              deps.logger.warn(
                { sessionKey: parts.sessionKey, error: (error as Error).message },
                "session part failed",
              );
            }
          }
        });
  const unlink = parts.linkSubagents(agent);
  const release = (): void => {
    unlink?.();
    unsubscribe?.();
    for (const part of added) part.release?.();
  };
  return { agent, tools, release };
}

/**
 * What the extensions add to a session's Agent, given its stored settings (read now: they change between builds).
 * Contract: `[]` without an extension that adds parts (nothing is read then).
 */
export async function extensionParts(
  deps: Pick<SessionAgentDeps, "turnHooks" | "store">,
  session: { readonly key: string; readonly agentId: string; readonly model: Model },
): Promise<readonly SessionAgentParts[]> {
  const hook = deps.turnHooks?.sessionAgent;
  if (hook === undefined) return [];
  const settings = (await deps.store.getSession(session.key))?.settings ?? {};
  return hook({ sessionKey: session.key, agentId: session.agentId, settings, model: () => session.model });
}

/** The session's context settings with each extension's layer over them, in extension order. */
function withExtensionContext(
  base: { context?: ContextConfig },
  added: readonly SessionAgentParts[],
): { context?: ContextConfig } {
  let context = base.context;
  for (const part of added) if (part.context !== undefined) context = part.context(context ?? {});
  return context === undefined ? {} : { context };
}

/** changed_files (seed 004): the files the session read whose content changed since the last model call. */
function changedFiles(prepared: PreparedAgent, sessionKey: string): SessionAgentParts[] {
  if (prepared.recentFiles === undefined || prepared.config.reminders?.changedFiles === false) return [];
  // RecentFileReads keys reads by session only; the run's id is not known before it starts.
  return [
    { reminders: [changedReadFilesReminder(prepared.recentFiles, { runId: "", depth: 0, sessionId: sessionKey })] },
  ];
}

function optionalReminders(
  config: ReminderConfig | undefined,
  added: readonly SessionAgentParts[],
): { reminders?: RemindersConfig } {
  const reminders = remindersFromConfig(config);
  const extra = added.flatMap((part) => part.reminders ?? []);
  if (extra.length === 0) return reminders === undefined ? {} : { reminders };
  return { reminders: { ...reminders, sources: [...(reminders?.sources ?? []), ...extra] } };
}
