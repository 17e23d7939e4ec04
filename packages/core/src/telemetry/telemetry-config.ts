import type { Context, Link, Span } from "@opentelemetry/api";

/**
 * What a run's spans and metrics say about it. Contract: content (prompts, model output, tool arguments and results)
 * is recorded only with `captureContent: true`; without a registered OpenTelemetry SDK nothing is recorded at all.
 */
export interface AgentTelemetryConfig {
  /** `gen_ai.agent.name`, and the name of the `invoke_agent {agent}` span. Default "agent". */
  agentName?: string;
  /** `gen_ai.agent.id`. */
  agentId?: string;
  /** `gen_ai.conversation.id` (the gateway passes a hash of the session key). Default: not set. */
  conversationId?: string;
  /** Record prompts, model output, tool arguments and tool results on the spans. Default false. */
  captureContent?: boolean;
  /** The parent of the run's span. Default: the active context. */
  parent?: Context;
  /**
   * Links of each run's `invoke_agent` span, asked for at the run's start (e.g. to the run it resumes after a
   * restart, which belongs to another trace). Default: none.
   */
  links?: () => readonly Link[];
  /**
   * The run's `invoke_agent` span, started by the caller with `startInvokeAgentSpan` (e.g. to store its traceparent
   * with the run before the run starts); the run sets its attributes and ends it, and `parent` and `links` are then
   * not used. A function is asked once at each run's start (an Agent that runs many times: the gateway starts each
   * turn's span before its run); when it returns undefined the run starts its own. Default: the run starts its own.
   */
  span?: Span | (() => Span | undefined);
}
