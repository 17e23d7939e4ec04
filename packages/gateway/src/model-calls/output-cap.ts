import type { StreamFn } from "@chorus/core";
import { parseSessionKey, rootKeyOf } from "@chorus/store";

/** The agent a session key names: its root session's (a sub-agent's key names its profile). */
export function agentOfSessionKey(sessionKey: string): string | undefined {
  const parsed = parseSessionKey(sessionKey);
  return parsed.ok ? rootKeyOf(parsed.key).agentId : undefined;
}

/**
 * `inner` with every call of a session capped at its agent's `maxOutputTokens` when the call sets no `maxTokens`:
 * every kind of call (turns, sub-agents, side calls) is capped alike, and what a budget reserves for it is known.
 * Contract: a call without a session, or with its own `maxTokens`, passes unchanged.
 */
export function cappedStreamFn(
  inner: StreamFn,
  maxOutputOf: (agentId: string | undefined) => number | undefined,
): StreamFn {
  return (model, context, options) => {
    const sessionKey = options?.sessionId;
    if (sessionKey === undefined || options?.maxTokens !== undefined) return inner(model, context, options);
    const maxTokens = maxOutputOf(agentOfSessionKey(sessionKey));
    return inner(model, context, maxTokens === undefined ? options : { ...options, maxTokens });
  };
}
