import type { InboundMessage } from "@chorus/channel";
import type { TrustTier } from "@chorus/store";
import type { ChannelPolicy } from "../config/resolve-channel-policy.js";

/** Why a message is not handled. */
export type IgnoreReason =
  | "own-message"
  | "bot"
  | "bot-hop-limit"
  | "dm-disabled"
  | "dm-not-allowed"
  | "group-not-allowed"
  | "not-mentioned";

/**
 * What to do with an inbound message:
 * - `handle` it with the given trust tier,
 * - `pair`: an unknown DM sender under the pairing policy — issue (or repeat) a pairing code instead of answering,
 * - `ignore` it; `hint` (for group-not-allowed) tells an operator how to allow the chat.
 */
export type InboundDecision =
  | { readonly action: "handle"; readonly trust: TrustTier }
  | { readonly action: "pair" }
  | { readonly action: "ignore"; readonly reason: IgnoreReason; readonly hint?: string };

/** What the decision needs besides the message and the channel policy. */
export interface InboundPolicyContext {
  readonly policy: ChannelPolicy;
  /** The bot's own user id on this account. */
  readonly selfId: string;
  /** Bot messages in a row in this chat, this one included (see BotLoopBrake); 0 for people. */
  readonly botHops: number;
  /** Whether this sender was approved through pairing on this account. */
  readonly paired: boolean;
}

/**
 * Decides whether an inbound message is handled, and with which trust tier. Order: own messages, other bots and
 * the bot-to-bot hop limit, then DM policy (admins always pass) or group allowlist, then mention gating
 * (a reply to the bot counts as a mention).
 * Contract: pure and total; never throws.
 */
export function decideInbound(message: InboundMessage, context: InboundPolicyContext): InboundDecision {
  const { policy } = context;
  const sender = message.sender;
  if (sender.id === context.selfId) return { action: "ignore", reason: "own-message" };
  if (sender.isBot) {
    if (!policy.allowBots) return { action: "ignore", reason: "bot" };
    if (context.botHops > policy.botHopLimit) return { action: "ignore", reason: "bot-hop-limit" };
  }
  const isAdmin = policy.admins.includes(sender.id);
  if (message.chatType === "dm") return decideDm(message, context, isAdmin);

  const group = policy.groups[message.chatId];
  if (group === undefined && policy.groupPolicy === "allowlist") {
    return {
      action: "ignore",
      reason: "group-not-allowed",
      hint:
        `ignoring group ${JSON.stringify(message.chatId)} on ${policy.channel}/${policy.accountId}: it is not in the allowlist; ` +
        `add it under "groups" of this channel's policy (or set groupPolicy: "open") to let the bot answer there`,
    };
  }
  const requireMention = group?.requireMention ?? true;
  if (requireMention && !message.mentionsBot && !message.replyToBot)
    return { action: "ignore", reason: "not-mentioned" };
  return { action: "handle", trust: isAdmin ? "owner" : (group?.trust ?? "guest") };
}

function decideDm(message: InboundMessage, context: InboundPolicyContext, isAdmin: boolean): InboundDecision {
  if (isAdmin) return { action: "handle", trust: "owner" };
  const { policy } = context;
  const allowed = context.paired || policy.allowFrom.includes(message.sender.id);
  switch (policy.dmPolicy) {
    case "disabled":
      return { action: "ignore", reason: "dm-disabled" };
    case "open":
      return { action: "handle", trust: allowed ? "trusted" : "guest" };
    case "allowlist":
      return allowed ? { action: "handle", trust: "trusted" } : { action: "ignore", reason: "dm-not-allowed" };
    case "pairing":
      return allowed ? { action: "handle", trust: "trusted" } : { action: "pair" };
  }
}

/**
 * The trust tier of a message's sender in its chat, ignoring whether it would be handled.
 * Contract: owner for admins; trusted for allowlisted or paired DM peers and members of configured groups (unless
 * the group says guest); guest for everyone else.
 */
export function trustTierOf(
  message: Pick<InboundMessage, "chatType" | "chatId" | "sender">,
  policy: ChannelPolicy,
  paired: boolean,
): TrustTier {
  if (policy.admins.includes(message.sender.id)) return "owner";
  if (message.chatType === "dm") return paired || policy.allowFrom.includes(message.sender.id) ? "trusted" : "guest";
  return policy.groups[message.chatId]?.trust ?? "guest";
}
