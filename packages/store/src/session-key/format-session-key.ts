import { assertKeyId, encodeKeyComponent } from "./key-component.js";
import { SessionKeyError } from "./session-key-error.js";
import type { RootSessionKey, SessionKey, SubagentSessionKey } from "./session-key-types.js";

/**
 * Builds the one string form of a session key.
 * DM `<agentId>:<accountId>:<channel>:dm:<peerId>`, group `<agentId>:<accountId>:<channel>:group:<groupId>[:thread:<threadId>]`,
 * sub-agent `agent:<agentId>:sub:<depth>:<childId>:<parentKey>`; platform ids are percent-encoded.
 * Contract: `parseSessionKey(formatSessionKey(k))` gives back `k`; throws SessionKeyError for invalid parts
 * (bad ids, empty ids, or a sub-agent depth that is not its parent's depth + 1).
 */
export function formatSessionKey(key: SessionKey): string {
  if (key.kind === "subagent") return formatSubagent(key);
  return formatRoot(key);
}

function formatRoot(key: RootSessionKey): string {
  assertKeyId(key.agentId, "bad-agent-id", "agent id");
  assertKeyId(key.accountId, "bad-account-id", "account id");
  assertKeyId(key.channel, "bad-channel", "channel");
  const head = `${key.agentId}:${key.accountId}:${key.channel}`;
  if (key.kind === "dm") return `${head}:dm:${encodeKeyComponent(key.peerId, "peer id")}`;
  const group = `${head}:group:${encodeKeyComponent(key.groupId, "group id")}`;
  return key.threadId === undefined ? group : `${group}:thread:${encodeKeyComponent(key.threadId, "thread id")}`;
}

// Iterative so that a deep lineage cannot overflow the stack.
function formatSubagent(key: SubagentSessionKey): string {
  const chain: SubagentSessionKey[] = [];
  let current: SessionKey = key;
  while (current.kind === "subagent") {
    chain.push(current);
    current = current.parent;
  }
  let text = formatRoot(current);
  for (let i = chain.length - 1; i >= 0; i--) {
    const child = chain[i]!;
    assertKeyId(child.agentId, "bad-agent-id", "agent id");
    const expected = depthOf(child.parent) + 1;
    if (child.depth !== expected) {
      throw new SessionKeyError(
        "depth-mismatch",
        `sub-agent depth ${child.depth} does not follow its parent (expected ${expected})`,
      );
    }
    text = `agent:${child.agentId}:sub:${child.depth}:${encodeKeyComponent(child.childId, "child id")}:${text}`;
  }
  return text;
}

function depthOf(key: SessionKey): number {
  return key.kind === "subagent" ? key.depth : 0;
}
