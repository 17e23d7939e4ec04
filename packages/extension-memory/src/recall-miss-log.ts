import { describeError, type GatewayLogger, parseSessionKey } from "@chorus/gateway";
import { type MemoryStore, type RecallMiss, recordMemoryMiss } from "@chorus/memory";

/** What logging a session's recall miss needs of the gateway. */
export interface RecallMissLogDeps {
  readonly logger: GatewayLogger;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  readonly now: () => number;
}

/** The agent whose miss log a session's misses go to: the session key's agent, or `unknown` for a foreign key. */
export function agentOfSession(sessionKey: string): string {
  const parsed = parseSessionKey(sessionKey);
  return parsed.ok ? parsed.key.agentId : "unknown";
}

/**
 * Logs a recall miss of `sessionKey` in the memory store's miss log and counts it (`chorus.memory.misses`),
 * fire-and-forget: the turn never waits for the write, and a failed write is only logged (without the query: it is
 * the user's words). Contract: never throws; nothing of it reaches the model or the chat.
 */
export function logRecallMiss(store: MemoryStore, deps: RecallMissLogDeps, sessionKey: string, miss: RecallMiss): void {
  const agentId = agentOfSession(sessionKey);
  const written = recordMemoryMiss(store, { ...miss, sessionKey, agentId, at: deps.now() }, (error) => {
    deps.logger.warn({ sessionKey, reason: miss.reason, error: describeError(error) }, "could not log a memory miss");
  });
  deps.track(written);
}
