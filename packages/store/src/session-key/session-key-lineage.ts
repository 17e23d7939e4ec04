import { formatSessionKey } from "./format-session-key.js";
import { parseSessionKeyOrThrow } from "./parse-session-key.js";
import type { RootSessionKey, SessionKey, SubagentSessionKey } from "./session-key-types.js";

function toKey(key: string | SessionKey): SessionKey {
  return typeof key === "string" ? parseSessionKeyOrThrow(key) : key;
}

/**
 * Whether a key belongs to a sub-agent.
 * Contract: false for malformed strings (it never throws).
 */
export function isSubagentKey(key: string | SessionKey): boolean {
  if (typeof key !== "string") return key.kind === "subagent";
  try {
    return parseSessionKeyOrThrow(key).kind === "subagent";
  } catch {
    return false;
  }
}

/**
 * How deep a session sits below its root: 0 for DM and group sessions, 1 for their children, and so on.
 * Contract: read from the key itself; throws SessionKeyError for a malformed key string.
 */
export function subagentDepth(key: string | SessionKey): number {
  const parsed = toKey(key);
  return parsed.kind === "subagent" ? parsed.depth : 0;
}

/**
 * The root DM or group session that a (possibly nested) sub-agent session descends from.
 * Contract: returns a string when given a string, and the structured root when given a structured key;
 * a root key is its own root; throws SessionKeyError for a malformed key string.
 */
export function rootKeyOf(key: string): string;
export function rootKeyOf(key: SessionKey): RootSessionKey;
export function rootKeyOf(key: string | SessionKey): string | RootSessionKey {
  let current = toKey(key);
  while (current.kind === "subagent") current = current.parent;
  return typeof key === "string" ? formatSessionKey(current) : current;
}

/**
 * The parent chain of a key, nearest first, ending with the root.
 * Contract: empty for a root key; throws SessionKeyError for a malformed key string.
 */
export function lineageOf(key: string | SessionKey): SessionKey[] {
  const chain: SessionKey[] = [];
  let current = toKey(key);
  while (current.kind === "subagent") {
    chain.push(current.parent);
    current = current.parent;
  }
  return chain;
}

/**
 * Builds the key of a child session spawned from `parent`, with depth = parent depth + 1.
 * Contract: the returned key parses back with `parent` as its parent; throws SessionKeyError for invalid parts.
 */
export function childSessionKey(parent: string | SessionKey, agentId: string, childId: string): string {
  const parentKey = toKey(parent);
  const child: SubagentSessionKey = {
    kind: "subagent",
    agentId,
    depth: subagentDepth(parentKey) + 1,
    childId,
    parent: parentKey,
  };
  return formatSessionKey(child);
}
