import { parseSessionKey, type TrustTier } from "@chorus/gateway";
import { formatMemoryScope, type MemoryToolScopes } from "@chorus/memory";

/** The memory scopes of a turn, plus the chat's own scope (what `/memory` shows and acts on). */
export interface SessionMemoryScopes extends MemoryToolScopes {
  /** The chat's scope: the DM peer's person, or the group. Undefined for sub-agent sessions (no memory). */
  readonly chat?: string;
}

/**
 * Whose memory a turn reads and writes, from the session key and the turn's trust tier — never from the model.
 * A DM reads its person's facts and the agent's; a group reads the group's and the agent's (never a member's own
 * DM facts). Writes go to the chat's scope, and only at `trusted` or `owner` tier: a guest's words (a turn mixing in
 * a guest's message runs as a guest) never become anyone's memory. The agent's scope is read-only to the model.
 */
export function sessionMemoryScopes(
  sessionKey: string,
  tier: TrustTier | undefined,
  personOf: (channel: string, peerId: string) => string = (channel, peerId) => `${channel}:${peerId}`,
): SessionMemoryScopes {
  const parsed = parseSessionKey(sessionKey);
  if (!parsed.ok || parsed.key.kind === "subagent") return { read: [] };
  const key = parsed.key;
  const agent = formatMemoryScope({ kind: "agent", id: key.agentId });
  const chat =
    key.kind === "dm"
      ? formatMemoryScope({ kind: "user", id: personOf(key.channel, key.peerId) })
      : formatMemoryScope({ kind: "group", id: `${key.channel}:${key.accountId}:${key.groupId}` });
  const mayWrite = tier === "owner" || tier === "trusted";
  return { read: [chat, agent], chat, ...(mayWrite ? { write: chat } : {}) };
}
