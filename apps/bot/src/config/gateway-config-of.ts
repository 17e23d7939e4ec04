import type { ChannelPolicyEntryInput, GatewayConfigInput } from "@chorus/gateway";
import { withoutLoopSettings } from "./agent-loop-settings.js";
import type { BotAgent, BotConfig, ChannelKind } from "./bot-config-schema.js";

type AgentConfigInput = GatewayConfigInput["agents"][number];

const POLICY_KEYS = [
  "admins",
  "dmPolicy",
  "allowFrom",
  "groupPolicy",
  "groups",
  "allowBots",
  "botHopLimit",
  "queueMode",
] as const;

/**
 * The gateway's part of a bot configuration: agents, bindings, and one policy entry per channel kind
 * (`policies` + top-level `admins`) and per account (its own policy fields). The top-level admins of a channel
 * are added to every account's own admin list, so they are admins everywhere on that channel.
 * Contract: pure; the result is what `parseGatewayConfig` validates.
 */
export function gatewayConfigOf(config: BotConfig): GatewayConfigInput {
  const channels: ChannelPolicyEntryInput[] = [];
  for (const kind of ["discord", "slack", "telegram", "webchat"] as const) {
    const shared = config.policies[kind] ?? {};
    const channelAdmins = [...(config.admins[kind] ?? []), ...(shared.admins ?? [])];
    const wide: ChannelPolicyEntryInput = { channel: kind, ...pickPolicy(shared) };
    if (channelAdmins.length > 0) wide.admins = unique(channelAdmins);
    if (kind === "webchat" && wide.dmPolicy === undefined) wide.dmPolicy = "open"; // the page is on this machine
    if (kind === "webchat" && wide.groupPolicy === undefined) wide.groupPolicy = "open";
    if (Object.keys(wide).length > 1) channels.push(wide);
    for (const account of accountsOf(config, kind)) {
      const own = pickPolicy(account);
      if (Object.keys(own).length === 0) continue;
      const entry: ChannelPolicyEntryInput = { channel: kind, accountId: account.accountId, ...own };
      if (own.admins !== undefined) entry.admins = unique([...channelAdmins, ...own.admins]);
      channels.push(entry);
    }
  }
  return {
    agents: config.agents.map(gatewayAgentOf),
    ...(config.defaultAgent === undefined ? {} : { defaultAgent: config.defaultAgent }),
    bindings: config.bindings,
    channels,
  };
}

/**
 * An agent as the gateway knows it: without the bot's workspace, exec, approval and loop fields, and with every `deny`
 * of its approvals added to its tool policy's deny list (so sub-agents are held to it too).
 */
function gatewayAgentOf(agent: BotAgent): AgentConfigInput {
  const {
    workspace: _workspace,
    guestRead: _guestRead,
    exec: _exec,
    hooks: _hooks,
    planMode: _planMode,
    skillDrafter: _skillDrafter,
    skillRouter: _skillRouter,
    context: _context,
    mcpServers: _mcpServers,
    mcpToolLimit: _mcpToolLimit,
    approvals,
    ...rest
  } = withoutLoopSettings(agent);
  const denied = Object.entries(approvals ?? {})
    .filter(([, mode]) => mode === "deny")
    .map(([tool]) => tool);
  if (denied.length === 0) return rest;
  return { ...rest, toolPolicy: { ...rest.toolPolicy, deny: unique([...(rest.toolPolicy?.deny ?? []), ...denied]) } };
}

/** The accounts configured for one channel kind. */
export function accountsOf(
  config: BotConfig,
  kind: ChannelKind,
): readonly BotConfig["channels"][ChannelKind][number][] {
  return config.channels[kind];
}

function pickPolicy(
  source: Partial<Record<(typeof POLICY_KEYS)[number], unknown>>,
): Omit<ChannelPolicyEntryInput, "channel"> {
  const out: Record<string, unknown> = {};
  for (const key of POLICY_KEYS) if (source[key] !== undefined) out[key] = source[key];
  return out as Omit<ChannelPolicyEntryInput, "channel">;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
