import type { OutboxEntry, SessionStore, TrustTier } from "@chorus/store";
import { childSessionKey, isSubagentKey, rootKeyOf } from "@chorus/store";
import type { SubagentEvent, SubagentResult } from "@chorus/tools";
import type { SubagentResultPayload } from "../delivery/outbox-payloads.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import { sessionKeyOfRun } from "./gateway-child-runner.js";
import { taskRunIdOf } from "./subagent-rerun.js";

/**
 * The `deliver` hook for @chorus/tools: a background child's result becomes a `subagent-result` outbox entry for
 * the parent's chat session (the root session when the parent is itself a sub-agent), handed to `onEnqueued` for
 * delivery. Contract: rejects when the result cannot be stored — @chorus/tools keeps it and `redeliver` retries.
 */
export function subagentResultDeliverer(options: {
  store: SessionStore;
  runs: RunTracker;
  trustOf(childRunId: string): TrustTier;
  onEnqueued(entries: readonly OutboxEntry[]): void;
}): (parentRunId: string, result: SubagentResult) => Promise<void> {
  return async (parentRunId, result) => {
    const parentKey = await sessionKeyOfRun(parentRunId, options.runs, options.store);
    if (parentKey === undefined) throw new Error(`the parent run ${parentRunId} is unknown`);
    const sessionKey = isSubagentKey(parentKey) ? rootKeyOf(parentKey) : parentKey;
    // A re-run (its first run's instance stopped) ran in its first run's session: the stored run says where.
    const childKey =
      (await options.store.getRun(result.runId))?.sessionKey ?? childSessionKey(parentKey, result.agent, result.runId);
    const payload: SubagentResultPayload = {
      // The run id the parent spawned it as, also for a re-run: the result is taken once per task.
      childRunId: taskRunIdOf(childKey, result.runId),
      childSessionKey: childKey,
      agent: result.agent,
      ...(result.label === undefined ? {} : { label: result.label }),
      status: result.status,
      text: result.text,
      trust: options.trustOf(result.runId),
    };
    const entries = await options.store.enqueueOutbox([
      { sessionKey, runId: parentRunId, kind: "subagent-result", payload },
    ]);
    options.onEnqueued(entries);
  };
}

/**
 * Publishes @chorus/tools sub-agent events on the gateway bus with their session keys.
 * Contract: never throws; when the parent run is no longer live the keys fall back to what the event carries.
 */
export function subagentEventPublisher(options: {
  events: GatewayEventBus;
  runs: RunTracker;
  now: () => number;
}): (event: SubagentEvent) => void {
  return (event) => {
    const parentKey = options.runs.get(event.parentRunId)?.sessionKey;
    let sessionKey = "";
    try {
      if (parentKey !== undefined) sessionKey = childSessionKey(parentKey, event.agent, event.runId);
      else if (event.type === "subagent_spawned") sessionKey = event.sessionId;
    } catch {
      // an agent name outside the key grammar: publish without a key rather than not at all
    }
    if (event.type === "subagent_spawned") {
      options.events.publish({
        type: "subagent_spawned",
        at: options.now(),
        runId: event.runId,
        parentRunId: event.parentRunId,
        sessionKey,
        parentSessionKey: parentKey ?? "",
        agentId: event.agent,
        depth: event.depth,
      });
      return;
    }
    options.events.publish({
      type: "subagent_completed",
      at: options.now(),
      runId: event.runId,
      parentRunId: event.parentRunId,
      sessionKey,
      outcome: event.status === "completed" ? "completed" : event.status === "aborted" ? "aborted" : "failed",
    });
  };
}
