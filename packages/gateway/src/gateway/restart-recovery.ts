import type { SessionRecord } from "@chorus/store";
import { isSubagentKey } from "@chorus/store";
import { openApprovalRequests, withdrawUndeliveredRequests } from "../approvals/approvals-after-restart.js";
import { noticePayload } from "../delivery/chat-notices.js";
import type { OutboxDispatcher } from "../delivery/outbox-dispatcher.js";
import { resumedByAnExtension } from "../extension/index.js";
import { describeError } from "../logging/gateway-logger.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import type { GatewayContext } from "./gateway-context.js";
import { repairInterruptedTranscript } from "./restart-repair.js";

const RESTART_NOTICE = "I was restarted while working on this — reply 'continue' to pick up.";
const RESUME_NOTICE = "I was restarted while working on this — picking up where I left off.";
const UNANSWERED_NOTICE = "I was restarted before I could answer — reply 'continue' and I will.";
const UNANSWERED_RESUME_NOTICE = "I was restarted before I could answer — answering now.";
/** What the model reads when an interrupted run resumes by itself. */
const RESUME_PROMPT =
  "[The gateway restarted while you were working on this. Continue where you left off; a tool that was running may or may not have finished.]";

/** A session to continue by itself after a restart, and the run it continues (its span's W3C traceparent). */
export interface RestartResume {
  readonly session: SessionRecord;
  /** The interrupted run's traceparent, when it was traced: the resumed turn's span links to it. */
  readonly resumes?: string;
}

/**
 * Recovers from a previous process before any channel starts: runs left running are marked interrupted and their
 * transcripts repaired, their open approval requests settled, outbox entries left in flight requeued, and every chat
 * with an interrupted run or an unanswered message told. Contract: resolves with the sessions to continue by
 * themselves (`onRestart: "resume"`; empty otherwise), to be passed to `resumeAfterRestart` once channels run.
 */
export async function recoverAfterRestart(ctx: GatewayContext, dispatcher: OutboxDispatcher): Promise<RestartResume[]> {
  const { store } = ctx;
  const interrupted = await store.interruptRunningRuns("the gateway restarted");
  const repaired = new Set<string>();
  for (const run of interrupted) {
    if (repaired.has(run.sessionKey)) continue;
    repaired.add(run.sessionKey);
    await repairInterruptedTranscript(store, run.sessionKey, ctx.now());
  }
  // Approval requests of interrupted runs: no process waits for their answers any more. Those never delivered are
  // withdrawn before the outbox starts; those delivered are changed in place below, without their buttons.
  const openRequests = await openApprovalRequests(store, interrupted);
  await withdrawUndeliveredRequests(store, openRequests);
  // In-flight entries are requeued before any notice below is claimed, so no notice is taken for a resend. Nothing
  // is sent before the channels have started: a platform channel cannot send before then.
  await dispatcher.recover();
  for (const { entry, text } of openRequests) {
    if (entry.status === "sent") ctx.notices.replace(Promise.resolve(entry.id), text);
  }
  const auto = ctx.options.onRestart === "resume";
  const resume: RestartResume[] = [];
  const told: Promise<void>[] = [];
  for (const run of interrupted) {
    if (run.depth !== 0) continue;
    const session = await store.getSession(run.sessionKey);
    // A running autonomous goal resumes its session itself, with its own notice (Gateway.start, after this).
    if (session === undefined || isSubagentKey(session.key) || resumedByAnExtension(ctx.extensions, session)) continue;
    told.push(tellAfterRestart(ctx, dispatcher, session, auto ? RESUME_NOTICE : RESTART_NOTICE));
    if (auto) resume.push(run.traceparent === undefined ? { session } : { session, resumes: run.traceparent });
  }
  // Messages that were still waiting for their turn (no run had taken them in) are told about too.
  for (const session of await store.listUnansweredSessions()) {
    if (repaired.has(session.key) || isSubagentKey(session.key) || resumedByAnExtension(ctx.extensions, session))
      continue;
    told.push(tellAfterRestart(ctx, dispatcher, session, auto ? UNANSWERED_RESUME_NOTICE : UNANSWERED_NOTICE));
    if (auto) resume.push({ session });
  }
  // Concurrent, so that the notices of one restart share their COMMITs.
  await Promise.all(told);
  return resume;
}

/**
 * Tells a chat what a restart did to its messages, and marks them answered in the same write as the notice's outbox
 * entry: a later restart does not tell it again about the same messages.
 */
async function tellAfterRestart(
  ctx: GatewayContext,
  dispatcher: OutboxDispatcher,
  session: SessionRecord,
  text: string,
): Promise<void> {
  const payload = noticePayload(sessionChatOf(session), text);
  try {
    const { outbox } = await ctx.store.commitTurn({
      sessionKey: session.key,
      messages: [],
      outbox: [{ sessionKey: session.key, kind: "notice", payload }],
      claimOutbox: true,
      answersSeq: session.lastSeq,
    });
    ctx.track(dispatcher.deliver(outbox));
  } catch (error) {
    ctx.logger.error({ sessionKey: session.key, error: describeError(error) }, "could not queue a notice");
  }
}

/**
 * Continues an interrupted run by itself (`onRestart: "resume"`): a stored note says what happened, and the
 * session's lane takes it like a message; the turn's span links to the interrupted run's. It runs as a guest: nobody
 * is asking, so no tier can be vouched for.
 */
export async function resumeAfterRestart(ctx: GatewayContext, { session, resumes }: RestartResume): Promise<void> {
  const message = { role: "user" as const, content: RESUME_PROMPT, timestamp: ctx.now() };
  const { firstSeq } = await ctx.store.appendMessages(session.key, [message]);
  const item = { message, seq: firstSeq, trust: "guest" as const, source: "user" as const };
  ctx.sessions.runtimeFor(session).accept(resumes === undefined ? item : { ...item, resumes });
}
