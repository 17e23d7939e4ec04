import type { BindingMatch } from "./gateway-config-schema.js";

/** The tiers of a binding, most specific last: channel < account < guild/team < group < peer. */
export type BindingTier = "default" | "channel" | "account" | "guild" | "group" | "peer";

const TIER_RANK: Record<BindingTier, number> = { default: 0, channel: 1, account: 2, guild: 3, group: 4, peer: 5 };

/** The tier of a binding: its most specific field. */
export function bindingTier(match: BindingMatch): BindingTier {
  if (match.peer !== undefined) return "peer";
  if (match.group !== undefined) return "group";
  if (guildOf(match) !== undefined) return "guild";
  if (match.accountId !== undefined) return "account";
  if (match.channel !== undefined) return "channel";
  return "default";
}

/**
 * Orders bindings by specificity: tier first, then the number of fields that narrow it further.
 * Contract: positive when `a` is more specific than `b`, 0 when they are equally specific.
 */
export function compareSpecificity(a: BindingMatch, b: BindingMatch): number {
  return TIER_RANK[bindingTier(a)] - TIER_RANK[bindingTier(b)] || fieldCount(a) - fieldCount(b);
}

/** Discord guilds and Slack teams are one concept for routing. */
export function guildOf(match: BindingMatch): string | undefined {
  return match.guild ?? match.team;
}

function fieldCount(match: BindingMatch): number {
  return [match.channel, match.accountId, match.peer, match.group, guildOf(match)].filter((v) => v !== undefined)
    .length;
}

/**
 * Whether one message could satisfy both matches: every field they both set has the same value.
 * Contract: symmetric; a peer match (DMs only) never overlaps a group match (groups only).
 */
export function matchesCanOverlap(a: BindingMatch, b: BindingMatch): boolean {
  if ((a.peer !== undefined && b.group !== undefined) || (a.group !== undefined && b.peer !== undefined)) return false;
  const pairs: [string | undefined, string | undefined][] = [
    [a.channel, b.channel],
    [a.accountId, b.accountId],
    [a.peer, b.peer],
    [a.group, b.group],
    [guildOf(a), guildOf(b)],
  ];
  return pairs.every(([x, y]) => x === undefined || y === undefined || x === y);
}

/** A readable description of a match, for error messages: `{channel: discord, peer: 123}`. */
export function describeMatch(match: BindingMatch): string {
  const parts = Object.entries(match)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${value}`);
  return `{${parts.join(", ")}}`;
}
