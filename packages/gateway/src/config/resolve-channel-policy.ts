import type { QueueMode } from "@chorus/store";
import type { DmPolicy, GatewayConfig, GroupConfig, GroupPolicy } from "./gateway-config-schema.js";

/** The complete policy in force for one channel account, defaults applied. */
export interface ChannelPolicy {
  readonly channel: string;
  readonly accountId: string;
  readonly admins: readonly string[];
  readonly dmPolicy: DmPolicy;
  readonly allowFrom: readonly string[];
  readonly groupPolicy: GroupPolicy;
  readonly groups: Readonly<Record<string, GroupConfig>>;
  readonly allowBots: boolean;
  readonly botHopLimit: number;
  readonly queueMode: QueueMode;
}

/** Defaults: pairing for DMs, allowlisted groups, bots ignored, steer. */
export const CHANNEL_POLICY_DEFAULTS = {
  admins: [],
  dmPolicy: "pairing",
  allowFrom: [],
  groupPolicy: "allowlist",
  groups: {},
  allowBots: false,
  botHopLimit: 3,
  queueMode: "steer",
} as const satisfies Omit<ChannelPolicy, "channel" | "accountId">;

/**
 * The policy for one channel account: the account's entry, over the channel-wide entry, over the defaults.
 * Each field is taken whole from the most specific entry that sets it (lists and group maps are not merged).
 * Contract: always returns a complete policy, even for channels the config does not mention.
 */
export function resolveChannelPolicy(config: GatewayConfig, channel: string, accountId: string): ChannelPolicy {
  const channelWide = config.channels.find((entry) => entry.channel === channel && entry.accountId === undefined);
  const account = config.channels.find((entry) => entry.channel === channel && entry.accountId === accountId);
  const pick = <K extends keyof typeof CHANNEL_POLICY_DEFAULTS>(key: K) =>
    account?.[key] ?? channelWide?.[key] ?? CHANNEL_POLICY_DEFAULTS[key];
  return {
    channel,
    accountId,
    admins: pick("admins"),
    dmPolicy: pick("dmPolicy"),
    allowFrom: pick("allowFrom"),
    groupPolicy: pick("groupPolicy"),
    groups: pick("groups"),
    allowBots: pick("allowBots"),
    botHopLimit: pick("botHopLimit"),
    queueMode: pick("queueMode"),
  };
}
