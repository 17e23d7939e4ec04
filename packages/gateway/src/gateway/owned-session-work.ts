import type { OwnershipEvent, RunRecord, SessionOwnership, UnansweredSession } from "@chorus/store";
import { isSubagentKey } from "@chorus/store";
import { openApprovalRequests, withdrawUndeliveredRequests } from "../approvals/approvals-after-restart.js";
import type { OutboxDispatcher } from "../delivery/outbox-dispatcher.js";
import { runOwnershipChanged } from "../extension/index.js";
import { describeError } from "../logging/gateway-logger.js";
import { noteInterruptedSubagents } from "../subagent-sessions/interrupted-subagents.js";
import type { GatewayContext } from "./gateway-context.js";
import { rerunInterruptedSubagents } from "./rerun-interrupted-subagents.js";
import { repairInterruptedTranscript } from "./restart-repair.js";
import { takeUpStoredMessages } from "./take-up-stored-messages.js";

/**
 * What a gateway instance does as its ownership changes (a cluster): on a takeover it settles what the previous owner
 * left (interrupted runs' transcripts repaired, their open approval requests withdrawn, requeued replies marked as
 * possible resends, background sub-agents that died there run again, or their parents told), then answers every stored message nobody answered (the turn that answers an interrupted run's message links to its span, `chorus.link.type=resumes`) — the same repair restart recovery makes, per
 * shard instead of per process. Wake-ups and the sweep answer messages other instances stored for sessions it owns;
 * on a loss, queued messages are given back (the new owner answers them from the store).
 * Contract: `onEvent` never rejects; each stored message is taken into its session's lane at most once per process.
 */
export class OwnedSessionWork {
  readonly #ctx: GatewayContext;
  readonly #dispatcher: OutboxDispatcher;
  readonly #ownership: SessionOwnership;

  /** Sessions being taken over, with the takeover's work. */
  readonly #takeovers = new Map<string, Promise<void>>();

  constructor(ctx: GatewayContext, dispatcher: OutboxDispatcher, ownership: SessionOwnership) {
    this.#ctx = ctx;
    this.#dispatcher = dispatcher;
    this.#ownership = ownership;
  }

  onEvent(event: OwnershipEvent): void {
    // From now until they are in the lane, messages this instance's intake takes for these sessions wait for them.
    const order = this.#ctx.intakeOrder;
    const keys = takenUp(event);
    for (const key of keys) order?.begin(key);
    const work = this.#handle(event)
      .catch((error: unknown) => {
        this.#ctx.logger.error({ event: event.type, error: describeError(error) }, "ownership change failed");
      })
      .finally(() => {
        for (const key of keys) order?.end(key);
        if (event.type !== "gained") return;
        for (const key of takenOver(event)) if (this.#takeovers.get(key) === work) this.#takeovers.delete(key);
      });
    // A wake-up or sweep for a session being taken over waits for the takeover: its transcript is repaired first, and
    // the turn answering the interrupted run's messages is the takeover's (it links to that run's span).
    if (event.type === "gained") for (const key of takenOver(event)) this.#takeovers.set(key, work);
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
        await this.#answer(event.unanswered, interruptedSpans(event.interruptedRuns));
        // Extensions resume what they keep per session (autonomous goals go on here).
        await runOwnershipChanged(this.#ctx.extensions, { type: "gained" }, this.#ctx.logger);
        return;
      }
      case "unanswered":
        await this.#answer(event.sessions);
        return;
      case "signal":
        this.#ctx.cluster?.onSignal(event.signal);
        return;
      case "lost":
        for (const runtime of this.#ctx.sessions.values()) {
          if (this.#ownership.fenceFor(runtime.key) === undefined) runtime.giveBackQueued();
        }
        // Extensions let go of what they keep per session (goals' drivers stop here; the new owner resumes them).
        await runOwnershipChanged(this.#ctx.extensions, { type: "lost" }, this.#ctx.logger);
        return;
    }
  }

  /**
   * Takes up every session's stored messages; resolves once each is in its lane (or failed, logged). `takeover` (set
   * by a takeover only): the traceparents of the interrupted runs, by session, that the turns answering them link to.
   */
  async #answer(sessions: readonly UnansweredSession[], takeover?: ReadonlyMap<string, string>): Promise<void> {
    const taking = sessions
      .filter((unanswered) => !isSubagentKey(unanswered.session.key))
      .map((unanswered) =>
        this.#answerOne(unanswered, takeover).catch((error: unknown) => {
          const sessionKey = unanswered.session.key;
          this.#ctx.logger.error({ sessionKey, error: describeError(error) }, "could not take up stored messages");
        }),
      );
    await Promise.all(taking);
  }

  /** Takes the session's stored, unanswered user messages that this process has not taken yet into its lane. */
  async #answerOne(unanswered: UnansweredSession, takeover: ReadonlyMap<string, string> | undefined): Promise<void> {
    const key = unanswered.session.key;
    // Not the takeover itself: a takeover of this session under way settles it first.
    if (takeover === undefined) await this.#takeovers.get(key);
    return takeUpStoredMessages(this.#ctx, this.#ownership, unanswered, takeover?.get(key));
  }
}

/** The traceparents of the interrupted root runs that were traced, by session (the latest run of a session wins). */
function interruptedSpans(runs: readonly RunRecord[]): Map<string, string> {
  const spans = new Map<string, string>();
  for (const run of runs) {
    if (run.depth === 0 && run.traceparent !== undefined) spans.set(run.sessionKey, run.traceparent);
  }
  return spans;
}

/** The sessions a takeover settles: those with interrupted runs and those with stored, unanswered messages. */
function takenOver(event: Extract<OwnershipEvent, { type: "gained" }>): Set<string> {
  return new Set([
    ...event.interruptedRuns.map((run) => run.sessionKey),
    ...event.unanswered.map((unanswered) => unanswered.session.key),
  ]);
}

/** The sessions whose stored, unanswered messages an ownership event has this instance take up. */
function takenUp(event: OwnershipEvent): string[] {
  const sessions = event.type === "gained" ? event.unanswered : event.type === "unanswered" ? event.sessions : [];
  return sessions.map((unanswered) => unanswered.session.key);
}
