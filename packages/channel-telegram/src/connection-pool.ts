import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Transformer } from "grammy";

/** The keep-alive connection pool of one bot's Bot API calls (grammy would share an anonymous one per API root). */
export function createConnectionPool(apiRoot: string): HttpAgent {
  return apiRoot.startsWith("https:") ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
}

/**
 * A grammy API transformer that empties `pool` of its idle connections whenever a call fails at the network level
 * (grammy's HttpError: refused, reset, timed out). After a network change the pooled connections are dead without
 * knowing it; each would otherwise stall one later call for the whole request timeout before it is found out.
 * Contract: passes every call and its result or error through unchanged.
 */
export function forgetIdleConnectionsOnNetworkError(pool: HttpAgent): Transformer {
  return async (prev, method, payload, signal) => {
    try {
      return await prev(method, payload, signal);
    } catch (error) {
      if ((error as { name?: unknown }).name === "HttpError" && signal?.aborted !== true) forgetIdleConnections(pool);
      throw error;
    }
  };
}

function forgetIdleConnections(pool: HttpAgent): void {
  for (const sockets of Object.values(pool.freeSockets)) {
    for (const socket of sockets ?? []) socket.destroy();
  }
}
