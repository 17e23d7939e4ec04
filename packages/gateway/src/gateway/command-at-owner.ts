import { setTimeout as sleep } from "node:timers/promises";
import type { ClusterRequest } from "./cluster-request.js";
import type { GatewayContext } from "./gateway-context.js";

/** How long a command waits for its session to have a live owner (one died: the next claims it within a lease). */
export const OWNER_WAIT_MS = 8_000;

/** A pause between asks while no instance answers for the session. */
const ASK_AGAIN_AFTER_MS = 250;

/** A session command that must run where the session's turns run (its lane, its Agent in memory). */
export type SessionRequest = Extract<ClusterRequest, { readonly sessionKey: string }>;

/**
 * Runs a session command at the session's owner: here when this instance owns it (or there is no cluster), else at
 * the owner through a cluster request, whose answer it resolves with. While no instance answers (the owner died and
 * its shard is not claimed yet) it asks again for up to `OWNER_WAIT_MS`, and runs here if this instance took the
 * session over meanwhile. Contract: the command runs at most once; `told(text)` makes the answer when it did not run
 * (nobody answered in time) or may not have (the owner fell silent while at it); never rejects for a cluster reason.
 */
export async function commandAtOwner<T>(
  ctx: GatewayContext,
  request: SessionRequest,
  here: () => Promise<T>,
  told: (text: string) => T,
  waitMs = OWNER_WAIT_MS,
): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const ownership = ctx.store.ownership;
    if (ctx.cluster === undefined || ownership === undefined || ownership.fenceFor(request.sessionKey) !== undefined) {
      return here();
    }
    const outcome = await ctx.cluster.outcome(request);
    if (outcome.kind === "answered") return outcome.result as T;
    if (outcome.kind === "lost") {
      ctx.logger.warn({ op: request.op, sessionKey: request.sessionKey, owner: outcome.from }, "owner fell silent");
      return told(
        `The instance running this chat (${outcome.from}) took the command but stopped answering before it was done; it may or may not have been carried out.`,
      );
    }
    if (performance.now() >= deadline) {
      ctx.logger.warn({ op: request.op, sessionKey: request.sessionKey }, "no instance answered for the session");
      return told(
        "No instance running this chat answered (its instance may have just stopped), so nothing was done. Try again in a few seconds.",
      );
    }
    await sleep(ASK_AGAIN_AFTER_MS);
  }
}
