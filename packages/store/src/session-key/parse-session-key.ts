import { assertKeyId, decodeKeyComponent } from "./key-component.js";
import { SessionKeyError } from "./session-key-error.js";
import type { RootSessionKey, SessionKey } from "./session-key-types.js";

/** The result of parsing: the key, or the reason it is not one. */
export type ParseSessionKeyResult = { ok: true; key: SessionKey } | { ok: false; error: SessionKeyError };

const DEPTH_PATTERN = /^[1-9][0-9]{0,5}$/;

/**
 * Parses a session key string into structured data.
 * Contract: never throws; a malformed key gives `{ ok: false, error }` whose error code and message say what is wrong.
 */
export function parseSessionKey(key: string): ParseSessionKeyResult {
  try {
    return { ok: true, key: parseOrThrow(key) };
  } catch (error) {
    if (error instanceof SessionKeyError) return { ok: false, error };
    throw error;
  }
}

/**
 * Parses a session key string, throwing on malformed input.
 * Contract: returns the key, or throws SessionKeyError saying what is wrong.
 */
export function parseSessionKeyOrThrow(key: string): SessionKey {
  return parseOrThrow(key);
}

interface SubagentFrame {
  agentId: string;
  depth: number;
  childId: string;
}

// Iterative and linear on purpose: a hostile, deeply nested key must neither overflow the stack nor take quadratic time.
function parseOrThrow(key: string): SessionKey {
  if (key.length === 0) throw new SessionKeyError("empty", "session key is empty", key);
  const frames: SubagentFrame[] = [];
  let cursor = 0;
  for (let head = subagentHead(key, cursor); head !== undefined; head = subagentHead(key, cursor)) {
    const [agentId, depthRaw, childRaw, next] = head;
    assertKeyId(agentId, "bad-agent-id", "sub-agent agent id", key);
    if (!DEPTH_PATTERN.test(depthRaw)) {
      throw new SessionKeyError(
        "bad-depth",
        `sub-agent depth ${JSON.stringify(depthRaw)} is not a positive integer`,
        key,
      );
    }
    frames.push({ agentId, depth: Number(depthRaw), childId: decodeKeyComponent(childRaw, "child id", key) });
    cursor = next;
    if (cursor >= key.length) throw new SessionKeyError("bad-shape", "sub-agent key has no parent key", key);
  }
  let parsed: SessionKey = parseRoot(key.slice(cursor), key);
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i]!;
    const expected: number = (parsed.kind === "subagent" ? parsed.depth : 0) + 1;
    if (frame.depth !== expected) {
      throw new SessionKeyError(
        "depth-mismatch",
        `sub-agent depth ${frame.depth} does not follow its parent (expected ${expected})`,
        key,
      );
    }
    parsed = { kind: "subagent", agentId: frame.agentId, depth: frame.depth, childId: frame.childId, parent: parsed };
  }
  return parsed;
}

/**
 * Reads `agent:<agentId>:sub:<depth>:<childId>:` at `start`, returning its parts and where the parent key begins.
 * A root key's fourth part is "dm" or "group" while a sub-agent's is a depth, so an agent literally named
 * "agent" on a channel named "sub" is still read as a root key.
 */
function subagentHead(key: string, start: number): [string, string, string, number] | undefined {
  const parts: string[] = [];
  let from = start;
  for (let i = 0; i < 5; i++) {
    const colon = key.indexOf(":", from);
    if (colon < 0) return undefined;
    parts.push(key.slice(from, colon));
    from = colon + 1;
  }
  const [prefix, agentId = "", sub, depth = "", child = ""] = parts;
  if (prefix !== "agent" || sub !== "sub" || depth === "dm" || depth === "group") return undefined;
  return [agentId, depth, child, from];
}

function parseRoot(text: string, key: string): RootSessionKey {
  const parts = text.split(":");
  const [agentId = "", accountId = "", channel = "", kind = ""] = parts;
  if (kind !== "dm" && kind !== "group") {
    throw new SessionKeyError(
      "bad-shape",
      `expected <agentId>:<accountId>:<channel>:dm|group:<id> or agent:<agentId>:sub:<depth>:<childId>:<parentKey>, got ${JSON.stringify(text)}`,
      key,
    );
  }
  assertKeyId(agentId, "bad-agent-id", "agent id", key);
  assertKeyId(accountId, "bad-account-id", "account id", key);
  assertKeyId(channel, "bad-channel", "channel", key);
  if (kind === "dm") {
    if (parts.length !== 5) {
      throw new SessionKeyError("bad-shape", `a DM key has 5 parts, got ${parts.length}`, key);
    }
    return { kind: "dm", agentId, accountId, channel, peerId: decodeKeyComponent(parts[4] ?? "", "peer id", key) };
  }
  if (parts.length === 5) {
    return { kind: "group", agentId, accountId, channel, groupId: decodeKeyComponent(parts[4] ?? "", "group id", key) };
  }
  if (parts.length === 7 && parts[5] === "thread") {
    return {
      kind: "group",
      agentId,
      accountId,
      channel,
      groupId: decodeKeyComponent(parts[4] ?? "", "group id", key),
      threadId: decodeKeyComponent(parts[6] ?? "", "thread id", key),
    };
  }
  throw new SessionKeyError(
    "bad-shape",
    "a group key is <...>:group:<groupId> with an optional :thread:<threadId>",
    key,
  );
}
