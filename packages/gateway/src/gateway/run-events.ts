import type { AgentEvent, Model } from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import type { ApprovalDesk, ApprovalRequestInput } from "../approvals/approval-desk.js";
import {
  effectiveContextWindow,
  type LastCompaction,
  storeSessionContext,
} from "../compaction/session-context-record.js";
import { compressionOf } from "../context-features/compression-of.js";
import type { GatewayEvent } from "../events/index.js";

export type { LastCompaction } from "../compaction/session-context-record.js";

/**
 * Watches one event of a session's run: a tool call's start or end goes to the bus, a summary compaction to the log
 * and to the session's settings (what it saved, when, and the model's window), so /status shows it after a restart
 * and on any instance of a cluster.
 * Contract: resolves with the compaction's sizes and time when the event was one, else undefined; a failed store
 * write is logged, never thrown.
 */
export function observeRunEvent(
  deps: {
    readonly events: { publish(event: GatewayEvent): void };
    readonly logger: {
      info(fields: Record<string, unknown>, message: string): void;
      warn(fields: Record<string, unknown>, message: string): void;
    };
    readonly store: Pick<SessionStore, "transaction">;
    readonly loop: { readonly context?: { readonly window?: number } | undefined } | undefined;
    track(work: Promise<unknown>): void;
    now(): number;
  },
  session: { readonly key: string; readonly model: Model },
  runId: string,
  event: AgentEvent,
): LastCompaction | undefined {
  const sessionKey = session.key;
  const activity = toolActivityOf(runId, sessionKey, event, deps.now());
  if (activity !== undefined) deps.events.publish(activity);
  else if (event.type === "compaction" && event.kind === "summary") {
    const { tokensBefore, tokensAfter } = event;
    const fields = { sessionKey, tokensBefore, tokensAfter, saved: tokensBefore - tokensAfter };
    deps.logger.info(fields, "compacted the conversation");
    const lastCompaction = { before: tokensBefore, after: tokensAfter, atMs: deps.now() };
    const stored = storeSessionContext(deps.store, sessionKey, {
      lastCompaction,
      contextMaxTokens: effectiveContextWindow(deps.loop, session.model),
    }).catch((error: unknown) => {
      deps.logger.warn({ sessionKey, error: (error as Error).message }, "could not store the last compaction");
    });
    deps.track(stored);
    return lastCompaction;
  }
  return undefined;
}

/** The bus event for a tool call starting or ending in a run, or undefined for any other agent event. */
export function toolActivityOf(
  runId: string,
  sessionKey: string,
  event: AgentEvent,
  at: number,
): GatewayEvent | undefined {
  if (event.type !== "tool_execution_start" && event.type !== "tool_execution_end") return undefined;
  return {
    type: "tool_activity",
    at,
    runId,
    sessionKey,
    toolCallId: event.toolCallId,
    toolName: event.toolName,
    phase: event.type === "tool_execution_start" ? "start" : "end",
    ...(event.type === "tool_execution_end" ? { isError: event.isError } : {}),
    ...(event.type === "tool_execution_end" && event.result.compressed !== undefined
      ? { compressed: compressionOf(event.result.compressed) }
      : {}),
  };
}

/**
 * Resolves once the committer stored the message calling the tool, or once the call is aborted — a tool runs only once
 * the message calling it is stored, so a crash while it runs leaves a call for the restart to repair rather than no
 * trace of it. Contract: always resolves undefined (the call is allowed).
 */
export async function whenCallStored(
  committer: { callStored(toolCallId: string): Promise<unknown> } | undefined,
  toolCallId: string,
  signal: AbortSignal,
): Promise<undefined> {
  if (committer === undefined || signal.aborted) return undefined;
  let onAbort = (): void => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  await Promise.race([committer.callStored(toolCallId), aborted]);
  signal.removeEventListener("abort", onAbort);
  return undefined;
}

/**
 * Shows a tool call waiting for approval in its chat (answerable by the people who started the run, and admins), and
 * withdraws a request once its call ended. Other agent events are not the desk's.
 */
export function approvalsFollow(
  approvals: Pick<ApprovalDesk, "open" | "callEnded">,
  event: AgentEvent,
  run: Pick<ApprovalRequestInput, "runId" | "sessionKey" | "chat" | "requesterIds" | "agent">,
): void {
  if (event.type === "approval_required") {
    approvals.open({
      ...run,
      approvalId: event.approvalId,
      toolCallId: event.toolCall.id,
      toolName: event.toolCall.name,
      args: event.toolCall.arguments,
      reason: event.reason,
      timeoutMs: event.timeoutMs,
    });
  } else if (event.type === "tool_execution_end") {
    approvals.callEnded(run.runId, event.toolCallId);
  }
}
