import {
  Agent,
  type AgentLoopConfig,
  type AgentMessage,
  type Model,
  type RemindersConfig,
  type StreamFn,
  type SubgoalTracker,
} from "@chorus/core";
import type { Span } from "@opentelemetry/api";
import { sessionContextOptions } from "../compaction/session-context-options.js";
import { type ReminderConfig, remindersFromConfig } from "../config/reminder-config.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { agentTelemetry } from "../telemetry/agent-telemetry.js";
import type { GatewayTelemetryOptions } from "../telemetry/telemetry-options.js";
import type { PreparedAgent } from "./prepare-agent.js";

/** The gateway's settings every session's Agent gets. */
export interface SessionAgentDeps {
  readonly logger: GatewayLogger;
  readonly loop:
    | Omit<Partial<AgentLoopConfig>, "model" | "streamFn" | "tools" | "run" | "preDispatchPolicies">
    | undefined;
  readonly streamFn: StreamFn;
  readonly telemetry?: GatewayTelemetryOptions;
}

/** What one session's Agent is built from, besides the gateway's and the agent's settings. */
export interface SessionAgentParts {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly model: Model;
  /** The history: the stored transcript without the messages not answered yet. */
  readonly messages: readonly AgentMessage[];
  readonly subgoals: SubgoalTracker | undefined;
  /** The run's meta, read by the policies at call time (trust tier, group tool policy). */
  readonly meta: Record<string, unknown>;
  /** The id of the run about to start (the turn chose it). */
  newRunId(): string;
  /** Holds a tool call until the message calling it is stored. */
  callStored(toolCallId: string, signal: AbortSignal): Promise<undefined>;
  /** The turn's `invoke_agent` span, taken by the run when it starts. */
  runSpan(): Span | undefined;
}

/**
 * A session's Agent: the gateway's loop settings, then the agent's (features, system prompt, tools, policies, hooks,
 * reminders), on the session's model and history. Contract: the caller links it to the agent's sub-agents.
 */
export function buildSessionAgent(deps: SessionAgentDeps, prepared: PreparedAgent, parts: SessionAgentParts): Agent {
  return new Agent({
    // The loop's own warnings (a failing post_tool_use hook, a reminder source) go to the gateway's log.
    logger: deps.logger,
    ...deps.loop,
    ...prepared.loopFeatures,
    model: parts.model,
    streamFn: deps.streamFn,
    ...(prepared.config.systemPrompt === undefined ? {} : { systemPrompt: prepared.config.systemPrompt }),
    messages: [...parts.messages],
    // After the spreads above: their `context` layers are merged here, not overridden one by another.
    ...sessionContextOptions(deps.loop?.context, prepared.loopFeatures.context, parts.subgoals),
    tools: [...prepared.tools],
    preDispatchPolicies: [(ctx) => parts.callStored(ctx.toolCall.id, ctx.signal), ...prepared.policies],
    run: { depth: 0, sessionId: parts.sessionKey, meta: parts.meta, newRunId: parts.newRunId },
    telemetry: agentTelemetry(deps, parts.agentId, parts.sessionKey, parts.runSpan),
    ...optionalReminders(prepared.config.reminders),
    ...(prepared.hooks === undefined ? {} : { hooks: prepared.hooks }),
  });
}

function optionalReminders(config: ReminderConfig | undefined): { reminders?: RemindersConfig } {
  const reminders = remindersFromConfig(config);
  return reminders === undefined ? {} : { reminders };
}
