import type { OutboxEntry, RunRecord, SessionStore } from "@chorus/store";
import { asChatPayload } from "../delivery/outbox-payloads.js";

/** An approval request a restart left open, and what its message says from now on. */
export interface OpenApprovalRequest {
  readonly entry: OutboxEntry;
  readonly text: string;
}

/** Why an undelivered request is never sent, as its outbox entry records it. */
export const WITHDRAWN_BY_RESTART = "withdrawn: the restart interrupted its run before anyone answered";

/**
 * The approval requests of runs that a restart interrupted and that nobody settled: messages (delivered, or still to
 * be) whose buttons and codes no longer count, as no process waits for the answer any more.
 * Contract: reads only; one outbox listing per session of an interrupted run.
 */
export async function openApprovalRequests(
  store: SessionStore,
  interrupted: readonly RunRecord[],
): Promise<OpenApprovalRequest[]> {
  const runIds = new Set(interrupted.map((run) => run.id));
  const open: OpenApprovalRequest[] = [];
  for (const sessionKey of new Set(interrupted.map((run) => run.sessionKey))) {
    const entries = (await store.listOutbox({ sessionKey })).map((entry) => ({
      entry,
      payload: asChatPayload(entry.payload),
    }));
    const settled = new Set(entries.map(({ payload }) => payload?.settles));
    for (const { entry, payload } of entries) {
      const text = payload?.settleOnRestart;
      if (text === undefined || entry.runId === undefined || !runIds.has(entry.runId)) continue;
      if (settled.has(entry.id) || entry.status === "failed") continue;
      open.push({ entry, text });
    }
  }
  return open;
}

/**
 * Keeps requests that never reached the chat from arriving after the restart with live-looking buttons: each pending
 * or in-flight one is marked failed (`WITHDRAWN_BY_RESTART`). Run it before the outbox starts delivering.
 * Contract: an in-flight request's send may have reached the platform before the crash; that message keeps its
 * buttons, and a press on them answers that nothing is waiting.
 */
export async function withdrawUndeliveredRequests(
  store: SessionStore,
  open: readonly OpenApprovalRequest[],
): Promise<void> {
  for (const { entry } of open) {
    if (entry.status === "sent") continue;
    if (entry.status === "pending" && (await store.claimOutboxEntry(entry.id)) === undefined) continue;
    await store.markOutboxFailed(entry.id, { error: WITHDRAWN_BY_RESTART });
  }
}
