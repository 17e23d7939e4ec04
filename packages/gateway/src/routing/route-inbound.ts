import type { InboundMessage } from "@chorus/channel";
import type { QueueMode } from "@chorus/store";
import type { GatewayConfig } from "../config/gateway-config-schema.js";
import type { ChannelPolicy } from "../config/resolve-channel-policy.js";
import { type AgentRoute, resolveAgent } from "./resolve-agent.js";
import { sessionKeyForInbound } from "./session-key-for-inbound.js";

/** Where a message goes: the agent and the session. */
export interface InboundRoute extends AgentRoute {
  readonly sessionKey: string;
}

/**
 * Routes a message to its agent and session.
 * Contract: pure; see resolveAgent and sessionKeyForInbound.
 */
export function routeInbound(config: GatewayConfig, message: InboundMessage): InboundRoute {
  const route = resolveAgent(config, message);
  return { ...route, sessionKey: sessionKeyForInbound(route.agentId, message) };
}

/**
 * The queue mode for a message's session before any per-session `/queue` override: the group's, else the channel's.
 * Contract: pure.
 */
export function resolveQueueMode(
  policy: ChannelPolicy,
  message: Pick<InboundMessage, "chatType" | "chatId">,
): QueueMode {
  const group = message.chatType === "group" ? policy.groups[message.chatId] : undefined;
  return group?.queueMode ?? policy.queueMode;
}
