import type { AgentLoopConfig, AgentTelemetryConfig } from "@chorus/core";
import { sessionKeyAttribute } from "./session-key-hash.js";
import type { GatewayTelemetryOptions } from "./telemetry-options.js";

/** The telemetry settings of a session's Agent: named after its agent, its session key hashed unless configured. */
export function agentTelemetry(
  deps: { loop?: Pick<AgentLoopConfig, "telemetry"> | undefined; telemetry?: GatewayTelemetryOptions | undefined },
  agentId: string,
  sessionKey: string,
): AgentTelemetryConfig {
  const captureContent = deps.telemetry?.captureContent ?? deps.loop?.telemetry?.captureContent ?? false;
  return {
    ...deps.loop?.telemetry,
    agentName: agentId,
    agentId,
    conversationId: sessionKeyAttribute(sessionKey, deps.telemetry?.sessionKeys ?? "hashed"),
    captureContent,
  };
}
