import { openApprovalRequests, withdrawUndeliveredRequests } from "../approvals/approvals-after-restart.js";
import type { OutboxDispatcher } from "../delivery/outbox-dispatcher.js";
import type { GatewayContext } from "../gateway/gateway-context.js";
import { describeError } from "../gateway/gateway-logger.js";
import { repairInterruptedTranscript } from "../gateway/restart-repair.js";
import { isSubagentKey } from "../session-key/session-key-lineage.js";
import { noteInterruptedSubagents } from "../subagent-sessions/interrupted-subagents.js";
import { rerunInterruptedSubagents } from "../subagent-sessions/rerun-interrupted-subagents.js";
import type { OwnershipEvent, SessionOwnership, UnansweredSession } from "./session-ownership.js";

/**
 * What a gateway instance does as its ownership changes (a cluster): on a takeover it settles what the previous owner
 * left (interrupted runs' transcripts repaired, their open approval requests withdrawn, requeued replies marked as
 * possible resends, background sub-agents that died there run again, or their parents told), then answers every stored message nobody answered — the same repair restart recovery makes, per
 * shard instead of per process. Wake-ups and the sweep answer messages other instances stored for sessions it owns;
 * on a loss, queued messages are given back (the new owner answers them from the store).
 * Contract: `onEvent` never rejects; each stored message is taken into its session's lane at most once per process.
 */
export class OwnedSessionWork {
  readonly #ctx: GatewayContext;
  readonly #dispatcher: OutboxDispatcher;
  readonly #ownership: SessionOwnership;

  constructor(ctx: GatewayContext, dispatcher: OutboxDispatcher, ownership: SessionOwnership) {
    this.#ctx = ctx;
    this.#dispatcher = dispatcher;
    this.#ownership = ownership;
  }

  onEvent(event: OwnershipEvent): void {
    const work = this.#handle(event).catch((error: unknown) => {
      this.#ctx.logger.error({ event: event.type, error: describeError(error) }, "ownership change failed");
    });
    this.#ctx.track(work);
  }

  async #handle(event: OwnershipEvent): Promise<void> {
    switch (event.type) {
      case "gained": {
        const { store } = this.#ctx;
        const repaired = new Set<string>();
        for (const run of event.interruptedRuns) {
          if (repaired.has(run.sessionKey)) continue;
          repaired.add(run.sessionKey);
          await repairInterruptedTranscript(store, run.sessionKey, this.#ctx.now());
        }
        await withdrawUndeliveredRequests(store, await openApprovalRequests(store, event.interruptedRuns));
        // Before the unanswered messages' turns: their replies must not overtake the requeued ones.
        await this.#dispatcher.queueRequeued(event.requeuedOutbox);
        // Background sub-agents that died with their instance run again here; the parents of those that cannot are
        // told (at the parents' owners).
        const notRerun = await rerunInterruptedSubagents(this.#ctx, event.interruptedRuns);
        const notes = await noteInterruptedSubagents(store, notRerun);
        const ownedNotes = notes.filter((note) => this.#ownership.fenceFor(note.sessionKey) !== undefined);
        if (ownedNotes.length > 0) this.#ctx.track(this.#dispatcher.deliver(ownedNotes));
        this.#ctx.logger.info(
          {
            shards: event.shards.length,
            interruptedRuns: event.interruptedRuns.length,
            interruptedSubagentNotes: notes.length,
            requeuedOutbox: event.requeuedOutbox.length,
            unanswered: event.unanswered.length,
          },
          "took sessions over",
        );
        this.#answer(event.unanswered);
        return;
      }
      case "unanswered":
        this.#answer(event.sessions);
        return;
      case "signal":
        this.#ctx.cluster?.onSignal(event.signal);
        return;
      case "lost":
        for (const runtime of this.#ctx.sessions.values()) {
          if (this.#ownership.fenceFor(runtime.key) === undefined) runtime.giveBackQueued();
        }
        return;
    }
  }

  #answer(sessions: readonly UnansweredSession[]): void {
    for (const unanswered of sessions) {
      if (isSubagentKey(unanswered.session.key)) continue;
      this.#ctx.track(
        this.#answerOne(unanswered).catch((error: unknown) => {
          const sessionKey = unanswered.session.key;
          this.#ctx.logger.error({ sessionKey, error: describeError(error) }, "could not take up stored messages");
        }),
      );
    }
  }

  /** Takes the session's stored, unanswered user messages that this process has not taken yet into its lane. */
  async #answerOne({ session, answeredSeq, lastInboundSeq, hints, messages }: UnansweredSession): Promise<void> {
    if (this.#ownership.fenceFor(session.key) === undefined) return;
    // A session busy with these very messages (its own intake took them; a turn runs) needs no transcript read.
    const wanted = hints === undefined ? [lastInboundSeq] : [...hints.keys()];
    const live = this.#ctx.sessions.get(session.key);
    if (live !== undefined && wanted.every((seq) => live.hasTaken(seq))) return;
    const from = Math.max(answeredSeq, session.transcriptStartSeq - 1);
    const entries = messages ?? (await this.#ctx.store.readTranscript(session.key, { fromSeq: from + 1 }));
    if (this.#ownership.fenceFor(session.key) === undefined) return;
    const runtime = this.#ctx.sessions.runtimeFor(session);
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
      });
    }
  }
}
