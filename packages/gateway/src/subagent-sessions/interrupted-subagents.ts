import type { OutboxEntry, RunRecord, SessionStore } from "@chorus/store";
import { rootKeyOf } from "@chorus/store";
import type { SubagentResultPayload } from "../delivery/outbox-payloads.js";
import { wasBackgroundChild } from "./background-child.js";
import { taskRunIdOf } from "./subagent-rerun.js";

/** The status of the note a parent gets when its background sub-agent's instance stopped under it. */
export const INTERRUPTED_STATUS = "interrupted";

const INTERRUPTED_TEXT =
  "The gateway instance running this sub-agent stopped before it finished. Its result is lost unless that " +
  "instance comes back and delivers it (it would then arrive as a separate message).";

/**
 * Tells the parents of background sub-agents whose runs a takeover interrupted (their instance died or was cut off):
 * a `subagent-result` entry with status `interrupted` into the root session, which its owner takes like a result.
 * Only background children are noted (`wasBackgroundChild`: a parent waiting for its child is covered by its own
 * interruption). Contract: resolves with the entries written (none for root runs).
 */
export async function noteInterruptedSubagents(
  store: SessionStore,
  interrupted: readonly RunRecord[],
): Promise<OutboxEntry[]> {
  const notes = [];
  for (const run of interrupted) {
    if (run.depth === 0 || run.parentRunId === undefined) continue;
    const parent = await store.getRun(run.parentRunId);
    if (parent === undefined || !wasBackgroundChild(run, parent)) continue;
    const payload: SubagentResultPayload = {
      childRunId: taskRunIdOf(run.sessionKey, run.id),
      childSessionKey: run.sessionKey,
      agent: run.agentId,
      status: INTERRUPTED_STATUS,
      text: INTERRUPTED_TEXT,
      // The tier the child ran with is not stored: the follow-up turn gets the lowest.
      trust: "guest",
    };
    notes.push({ sessionKey: rootKeyOf(run.sessionKey), runId: parent.id, kind: "subagent-result" as const, payload });
  }
  return notes.length === 0 ? [] : store.enqueueOutbox(notes);
}
