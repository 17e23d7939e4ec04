import type { InboundMessage } from "@chorus/channel";
import { compareSpecificity, guildOf } from "../config/binding-specificity.js";
import type { Binding, BindingMatch, GatewayConfig } from "../config/gateway-config-schema.js";

/** The parts of an inbound message that routing looks at. */
export type RouteInput = Pick<InboundMessage, "channel" | "accountId" | "chatType" | "chatId" | "guildId"> & {
  readonly sender: Pick<InboundMessage["sender"], "id">;
};

/** Which agent answers, and which binding (if any) chose it. */
export interface AgentRoute {
  readonly agentId: string;
  /** Index into `config.bindings`; undefined when the default agent was used. */
  readonly bindingIndex: number | undefined;
}

/** Whether a binding's match fits a message: every field it sets must agree. */
export function bindingMatches(match: BindingMatch, message: RouteInput): boolean {
  if (match.channel !== undefined && match.channel !== message.channel) return false;
  if (match.accountId !== undefined && match.accountId !== message.accountId) return false;
  if (match.peer !== undefined && (message.chatType !== "dm" || message.sender.id !== match.peer)) return false;
  if (match.group !== undefined && (message.chatType !== "group" || message.chatId !== match.group)) return false;
  const guild = guildOf(match);
  return guild === undefined || guild === message.guildId;
}

/**
 * Picks the agent for a message: the most specific matching binding (peer > group > guild/team > account >
 * channel), else `defaultAgent`, else the first agent.
 * Contract: deterministic; a config from loadGatewayConfig has no ties, so the choice never depends on order.
 */
export function resolveAgent(config: GatewayConfig, message: RouteInput): AgentRoute {
  let best: { binding: Binding; index: number } | undefined;
  config.bindings.forEach((binding, index) => {
    if (!bindingMatches(binding.match, message)) return;
    if (best === undefined || compareSpecificity(binding.match, best.binding.match) > 0) best = { binding, index };
  });
  if (best !== undefined) return { agentId: best.binding.agentId, bindingIndex: best.index };
  return { agentId: config.defaultAgent ?? config.agents[0]!.id, bindingIndex: undefined };
}
