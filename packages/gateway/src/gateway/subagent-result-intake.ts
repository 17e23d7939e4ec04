import { asSubagentResultPayload } from "../delivery/outbox-payloads.js";
import type { OutboxEntry } from "../store/store-types.js";
import { subagentResultMessage } from "../subagent-sessions/subagent-result-message.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * Takes a background sub-agent's result (an outbox entry of kind `subagent-result`) into its parent session: the
 * result is appended to the transcript and the entry marked sent in one transaction, then the session's lane takes
 * it like a message. Contract: an entry without a readable payload or a session is kept as `failed`, not retried.
 */
export async function acceptSubagentResult(ctx: GatewayContext, entry: OutboxEntry): Promise<void> {
  const payload = asSubagentResultPayload(entry.payload);
  const session = await ctx.store.getSession(entry.sessionKey);
  if (payload === undefined || session === undefined) {
    // Kept (status failed) for inspection: there is no session to continue.
    await ctx.store.markOutboxFailed(entry.id, {
      error: payload === undefined ? "malformed sub-agent result" : `the session ${entry.sessionKey} no longer exists`,
    });
    return;
  }
  const message = subagentResultMessage(payload, ctx.now());
  const seq = await ctx.store.transaction(async (tx) => {
    const appended = await tx.appendMessages(session.key, [message]);
    await tx.markOutboxSent(entry.id, []);
    return appended.firstSeq;
  });
  ctx.sessions.runtimeFor(session).accept({ message, seq, trust: payload.trust, source: "subagent-result" });
}
