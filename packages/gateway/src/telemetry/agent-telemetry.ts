import type { AgentLoopConfig, AgentTelemetryConfig } from "@chorus/core";
import type { Span } from "@opentelemetry/api";
import { sessionKeyAttribute } from "./session-key-hash.js";
import type { GatewayTelemetryOptions } from "./telemetry-options.js";

/**
 * The telemetry settings of a session's Agent: named after its agent, its session key hashed unless configured;
 * `span` hands each run the span its turn started (see `TurnTrace.takeRunSpan`), read at the run's start.
 */
export function agentTelemetry(
  deps: { loop?: Pick<AgentLoopConfig, "telemetry"> | undefined; telemetry?: GatewayTelemetryOptions | undefined },
  agentId: string,
  sessionKey: string,
  span?: () => Span | undefined,
): AgentTelemetryConfig {
  const captureContent = deps.telemetry?.captureContent ?? deps.loop?.telemetry?.captureContent ?? false;
  return {
    ...deps.loop?.telemetry,
    agentName: agentId,
    agentId,
    conversationId: sessionKeyAttribute(sessionKey, deps.telemetry?.sessionKeys ?? "hashed"),
    captureContent,
    ...(span === undefined ? {} : { span }),
  };
}

/** The gateway's loop settings with `telemetry.captureContent` applied, so sub-agents record content alike. */
export function loopWithTelemetry<Loop extends Pick<Partial<AgentLoopConfig>, "telemetry">>(
  loop: Loop | undefined,
  telemetry: GatewayTelemetryOptions | undefined,
): Loop | undefined {
  if (telemetry?.captureContent === undefined) return loop;
  return { ...loop, telemetry: { ...loop?.telemetry, captureContent: telemetry.captureContent } } as Loop;
}
