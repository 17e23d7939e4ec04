import type { SessionOwnership, UnansweredSession } from "@chorus/store";
import type { GatewayContext } from "./gateway-context.js";

/**
 * Takes a session's stored, unanswered user messages that this process has not taken yet into its lane, in seq order
 * (a takeover, a wake-up, a sweep, or the owner's intake finding older messages whose wake-ups have not come yet).
 * `resumes` (a takeover): the traceparent of the run the previous owner was answering them with, interrupted — the
 * turn that takes the first of them links to it, as a run resumed after a restart does.
 * Contract: nothing when this instance does not own the session; each seq is taken at most once per runtime.
 */
export async function takeUpStoredMessages(
  ctx: GatewayContext,
  ownership: SessionOwnership,
  { session, answeredSeq, lastInboundSeq, hints, messages }: UnansweredSession,
  resumes?: string,
): Promise<void> {
  if (ownership.fenceFor(session.key) === undefined) return;
  // A session busy with these very messages (its own intake took them; a turn runs) needs no transcript read.
  const wanted = hints === undefined ? [lastInboundSeq] : [...hints.keys()];
  const live = ctx.sessions.get(session.key);
  if (live !== undefined && wanted.every((seq) => live.hasTaken(seq))) return;
  const from = Math.max(answeredSeq, session.transcriptStartSeq - 1);
  const entries = messages ?? (await ctx.store.readTranscript(session.key, { fromSeq: from + 1 }));
  if (ownership.fenceFor(session.key) === undefined) return;
  const runtime = ctx.sessions.runtimeFor(session);
  let link = resumes === undefined ? {} : { resumes };
  for (const { seq, message } of entries) {
    // A message this runtime has taken already (from its own intake, or an earlier wake-up) is not taken twice.
    if (seq > lastInboundSeq || message.role !== "user" || runtime.hasTaken(seq)) continue;
    const hint = hints?.get(seq);
    runtime.accept({
      message,
      seq,
      // Without the taking instance's word (a lost notification), the lowest tier: never more than was granted.
      trust: hint?.trust ?? "guest",
      source: "user",
      ...(hint?.senderId === undefined ? {} : { senderId: hint.senderId }),
      ...(hint?.replyToMessageId === undefined ? {} : { replyToMessageId: hint.replyToMessageId }),
      ...link,
    });
    link = {};
  }
}
