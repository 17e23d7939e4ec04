import { parseSessionKey } from "@chorus/gateway";
import { formatMemoryScope } from "@chorus/memory";

/**
 * Whose style observations a message of this session is: its sender's own user scope — in a DM the DM's person, in
 * a group the member who wrote it (never the group's: one member's habits are not another's). Undefined for a
 * sub-agent's session, a foreign key, or a group message without a known sender. Contract: pure.
 * @example userStyleScope("main:main:test:group:g1", "alice") // "user:test:alice"
 */
export function userStyleScope(
  sessionKey: string,
  senderId: string | undefined,
  personOf: (channel: string, peerId: string) => string = (channel, peerId) => `${channel}:${peerId}`,
): string | undefined {
  const parsed = parseSessionKey(sessionKey);
  if (!parsed.ok || parsed.key.kind === "subagent") return undefined;
  const key = parsed.key;
  const person = key.kind === "dm" ? key.peerId : senderId;
  return person === undefined ? undefined : formatMemoryScope({ kind: "user", id: personOf(key.channel, person) });
}
