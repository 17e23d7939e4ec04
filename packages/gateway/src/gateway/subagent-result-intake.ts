import type { InboundEventRef, OutboxEntry } from "@chorus/store";
import { asSubagentResultPayload, type SubagentResultPayload } from "../delivery/outbox-payloads.js";
import { INTERRUPTED_STATUS } from "../subagent-sessions/interrupted-subagents.js";
import { subagentResultMessage } from "../subagent-sessions/subagent-result-message.js";
import type { GatewayContext } from "./gateway-context.js";

/**
 * Takes a background sub-agent's result (an outbox entry of kind `subagent-result`) into its parent session: the
 * result is recorded as taken (by child run id, durably: a second result of the same run — redelivered after an
 * unknown outcome, or sent by another instance — is dropped), appended to the transcript and the entry marked sent
 * in one transaction, then the session's lane takes it like a message. In a cluster only the session's owner takes
 * it; elsewhere it is refused and retried, and the owner's outbox poll takes it.
 * Contract: an entry without a readable payload or a session is kept as `failed`, not retried; each child run's
 * result reaches its parent session at most once.
 */
export async function acceptSubagentResult(ctx: GatewayContext, entry: OutboxEntry): Promise<void> {
  if (ctx.store.ownership !== undefined && ctx.store.ownership.fenceFor(entry.sessionKey) === undefined) {
    throw new Error(`the session ${entry.sessionKey} is owned by another instance; its owner takes the result`);
  }
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
    const first = await tx.recordInboundEvent(subagentResultEvent(payload));
    const appended = first ? await tx.appendMessages(session.key, [message]) : undefined;
    await tx.markOutboxSent(entry.id, []);
    return appended?.firstSeq;
  });
  if (seq === undefined) {
    ctx.logger.warn({ childRunId: payload.childRunId, entryId: entry.id }, "a sub-agent result arrived twice; dropped");
    return;
  }
  ctx.sessions.runtimeFor(session).accept({ message, seq, trust: payload.trust, source: "subagent-result" });
}

/**
 * The dedupe record of a sub-agent result: its child run (a note that the run was interrupted is recorded apart from
 * its result, so that a result arriving after the note still reaches the parent).
 */
function subagentResultEvent(payload: SubagentResultPayload): InboundEventRef {
  const what = payload.status === INTERRUPTED_STATUS ? "interrupted" : "result";
  return { channel: "subagent-result", accountId: what, eventId: payload.childRunId };
}
