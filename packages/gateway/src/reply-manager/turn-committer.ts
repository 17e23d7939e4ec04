import type { SendTarget, SentMessage } from "@chorus/channel";
import type { AgentEvent, AgentMessage, AgentRunResult } from "@chorus/core";
import type { EndedRunStatus, NewOutboxEntry, OutboxEntry, RunRecord, SessionStore, StoreFence } from "@chorus/store";
import { isSessionStoreError } from "@chorus/store";
import type { ChatDeliveryPayload } from "../delivery/outbox-payloads.js";
import { describeError, type GatewayLogger } from "../logging/gateway-logger.js";
import { timeStoreCommit } from "../telemetry/store-commit-timer.js";
import { traceparentOf } from "../telemetry/traceparent.js";
import { assistantText, hasToolCalls, toolCallIds } from "./assistant-text.js";
import type { CommitSideWrites } from "./commit-side-writes.js";
import type { ReplyManager } from "./reply-manager.js";

/** Options of one run's committer. */
export interface TurnCommitterOptions {
  store: SessionStore;
  sessionKey: string;
  runId: string;
  /**
   * The run's agent, when the run is not stored yet: the run's first commit writes it (no `startRun` of its own), and
   * until one succeeds every commit carries it. Without it the run must have been started already.
   */
  startRunAs?: string;
  /** Messages already in the store (the prompts, steered messages): never appended twice. */
  stored: WeakSet<object>;
  /** Where replies go. */
  chat: { channel: string; accountId: string; target: SendTarget };
  /** The run's reply manager (only its preview side is used). */
  replies: Pick<ReplyManager, "previewing" | "takePreview">;
  /** The highest seq of the stored user messages the run took in; the run's final commit marks them answered. */
  answersSeq?: () => number | undefined;
  /** The ownership fence every commit carries (a cluster); the store refuses them once the session was taken over. */
  fence?: StoreFence;
  /**
   * Told when a commit was refused because another instance took the session over (`fenced`): the run should stop —
   * its messages will never be stored, and the new owner answers them.
   */
  onFenced?: () => void;
  /**
   * Writes to join each commit's transaction, given that commit's messages (long-term memory: the facts whose
   * `remember` result is among them). Undefined: nothing to join.
   */
  sideWritesFor?: (messages: readonly AgentMessage[]) => CommitSideWrites | undefined;
  /** Receives the outbox entries of every commit, in order, to deliver them. */
  onCommitted(entries: readonly OutboxEntry[]): void;
  logger: GatewayLogger;
  /**
   * Waits between attempts of a run's final commit that failed for a reason other than `fenced` (the store
   * unreachable), doubling up to 5 s. Default 250 ms.
   */
  retryBaseMs?: number;
  /**
   * Whether this instance still holds the session under the run's fence (a cluster). A final commit found applied
   * after a failure has its reply delivered from here only then; else the new owner's takeover requeued it.
   */
  stillOwner?: () => boolean;
}

/**
 * Persists a run as it goes: each turn's new messages together with the outbox entry of its reply in one
 * `commitTurn`; the last turn also carries the run's end (status, usage) — so a reply never exists without the
 * transcript it answers, nor a finished run without its reply. An assistant message that calls tools is stored as
 * soon as it ends, before its tools run. Compactions are persisted as a fresh transcript start.
 * Contract: commits happen in event order; a failed commit keeps its messages for the next one and is logged. The
 * run's final commit is settled, not assumed: after a failure (the store unreachable, or its answer lost) the store
 * is asked once it answers whether the commit applied — then its reply, claimed by it, is delivered — and otherwise the
 * commit is made again, until it goes through, is refused as `fenced` or `giveUp` is called.
 */
export class TurnCommitter {
  readonly #o: TurnCommitterOptions;
  #chain: Promise<void> = Promise.resolve();
  #pending: AgentMessage[] = [];
  /** Tool calls by id: resolved once the message calling them is stored. */
  readonly #calls = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  /** The last turn's reply, held back until we know whether the run ends with it. */
  #held: { text: string; preview: Promise<readonly SentMessage[]>; aborted: boolean } | undefined;
  /** Whether the run is in the store (started elsewhere, or by a commit of this committer). */
  #runStored: boolean;
  /** The run's `invoke_agent` span as a W3C traceparent, when traced: stored with the run and its outbox entries. */
  #traceparent: string | undefined;
  /** Set by `giveUp`: a failed final commit is not tried again. */
  #givenUp = false;
  #wake: (() => void) | undefined;

  constructor(options: TurnCommitterOptions) {
    this.#o = options;
    this.#runStored = options.startRunAs === undefined;
  }

  /** Feed every agent event of the run. */
  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "agent_start":
        if (event.spanContext !== undefined) this.#traceparent = traceparentOf(event.spanContext);
        break;
      case "message_end":
        if (!this.#o.stored.has(event.message as object)) this.#pending.push(event.message);
        // Tool calls are stored before their tools run: a crash mid-tool leaves them for the restart to repair.
        if (hasToolCalls(event.message)) {
          const messages = this.#pending.splice(0);
          const ids = toolCallIds(event.message);
          this.#chain = this.#chain.then(async () => {
            await this.#commit(messages, undefined, undefined, undefined);
            for (const id of ids) this.#callSlot(id).resolve();
          });
        }
        break;
      case "turn_start":
        if (this.#held !== undefined) this.#commitHeld(undefined);
        break;
      case "turn_end": {
        const message = event.message;
        if (message === undefined) break;
        const reply = {
          text: assistantText(message),
          preview: this.#o.replies.previewing ? this.#o.replies.takePreview() : Promise.resolve([]),
          aborted: message.stopReason === "aborted" || message.stopReason === "error",
        };
        if (hasToolCalls(message)) {
          const messages = this.#pending.splice(0);
          this.#chain = this.#chain.then(async () => {
            await this.#commit(messages, reply, undefined, undefined);
          });
        } else {
          this.#held = reply;
        }
        break;
      }
      case "compaction":
        if (event.kind === "summary") this.#persistCompaction(event.messages);
        break;
      default:
        break;
    }
  }

  /**
   * Resolves once the assistant message holding this tool call has been written (or its commit failed and was
   * logged). Contract: never rejects; pending until that message ends.
   */
  callStored(toolCallId: string): Promise<void> {
    return this.#callSlot(toolCallId).promise;
  }

  #callSlot(toolCallId: string): { promise: Promise<void>; resolve: () => void } {
    let slot = this.#calls.get(toolCallId);
    if (slot === undefined) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      slot = { promise, resolve };
      this.#calls.set(toolCallId, slot);
    }
    return slot;
  }

  /**
   * Stops trying a failed final commit again (the gateway stops): `finish` then resolves with undefined; the turn's
   * messages stay stored and unanswered for the next start or owner. Contract: idempotent.
   */
  giveUp(): void {
    this.#givenUp = true;
    this.#wake?.();
  }

  /**
   * Writes the run's end with whatever is still unwritten (the last reply, a notice) in one transaction.
   * Contract: resolves with the ended run record, or undefined when the commit was refused (`fenced`) or `giveUp`
   * was called while it kept failing (logged).
   */
  async finish(result: AgentRunResult, notice: string | undefined): Promise<RunRecord | undefined> {
    let run: RunRecord | undefined;
    const status = runStatusOf(result.reason);
    const patch =
      result.error === undefined
        ? { status, usage: result.usage }
        : { status, usage: result.usage, error: result.error };
    this.#commitHeld({ patch, notice, done: (record) => (run = record) });
    await this.#chain;
    return run;
  }

  #commitHeld(
    end:
      | { patch: { status: EndedRunStatus }; notice: string | undefined; done: (run: RunRecord | undefined) => void }
      | undefined,
  ): void {
    const held = this.#held;
    this.#held = undefined;
    const messages = this.#pending.splice(0);
    this.#chain = this.#chain.then(() =>
      this.#commit(messages, held, end?.patch, end?.notice).then((run) => end?.done(run)),
    );
  }

  async #commit(
    messages: AgentMessage[],
    reply: { text: string; preview: Promise<readonly SentMessage[]>; aborted: boolean } | undefined,
    patch: ({ status: EndedRunStatus } & Record<string, unknown>) | undefined,
    notice: string | undefined,
  ): Promise<RunRecord | undefined> {
    const { store, sessionKey, runId } = this.#o;
    const outbox: NewOutboxEntry[] = [];
    if (reply !== undefined) {
      const previews = await reply.preview;
      let text = reply.text.trim();
      if (reply.aborted && text !== "") text += "\n\n_(stopped)_";
      if (text !== "" || previews.length > 0) {
        outbox.push(this.#entry("reply", text === "" ? "_(stopped)_" : text, previews));
      }
    }
    if (notice !== undefined) outbox.push(this.#entry("notice", notice, []));
    const answersSeq = patch === undefined ? undefined : this.#o.answersSeq?.();
    const traceparent = this.#traceparent === undefined ? {} : { traceparent: this.#traceparent };
    const start = this.#runStored ? undefined : { agentId: this.#o.startRunAs as string, ...traceparent };
    const run =
      patch === undefined && start === undefined
        ? undefined
        : { id: runId, ...(patch === undefined ? {} : { patch }), ...(start === undefined ? {} : { start }) };
    const attempt = async (): Promise<RunRecord | undefined> => {
      const side = this.#o.sideWritesFor?.(messages);
      try {
        const result = await timeStoreCommit(() =>
          store.commitTurn({
            sessionKey,
            messages,
            ...(answersSeq === undefined ? {} : { answersSeq }),
            // Claimed in the commit itself: `onCommitted` hands them straight to the dispatcher, which sends them.
            ...(outbox.length > 0 ? { outbox, claimOutbox: true } : {}),
            ...(run === undefined ? {} : { run }),
            ...(this.#o.fence === undefined ? {} : { fence: this.#o.fence }),
            ...(side === undefined ? {} : { sideWrites: side.writes }),
          }),
        );
        this.#committed(messages);
        side?.committed(result.sideWritten === true);
        if (result.outbox.length > 0) this.#o.onCommitted(result.outbox);
        return result.run;
      } catch (error) {
        side?.failed();
        throw error;
      }
    };
    try {
      return await attempt();
    } catch (error) {
      this.#o.logger.error({ sessionKey, runId, error: describeError(error) }, "could not persist a turn");
      if (isSessionStoreError(error, "fenced")) {
        this.#o.onFenced?.();
      } else if (patch !== undefined) {
        // The run's last commit: nothing later would carry its messages, so it is settled here.
        return this.#settleFinalCommit(attempt, messages);
      }
      // Keep the messages for the next commit of this run; the run record is fixed up at the next start.
      this.#pending.unshift(...messages);
      return undefined;
    }
  }

  #committed(messages: readonly AgentMessage[]): void {
    this.#runStored = true;
    for (const message of messages) this.#o.stored.add(message as object);
  }

  /**
   * A final commit that failed without being refused: its outcome is unknown (the store unreachable, or its answer
   * lost after it applied). Once the store answers, the run's record says which: ended means it applied — its reply
   * entries, written claimed by it, are delivered now (the outbox's reclaim of stale claims is the backstop) — else it
   * is made again. Repeats, waiting longer each time, until settled, `fenced` or given up.
   */
  async #settleFinalCommit(
    attempt: () => Promise<RunRecord | undefined>,
    messages: readonly AgentMessage[],
  ): Promise<RunRecord | undefined> {
    const { store, sessionKey, runId, logger } = this.#o;
    let delay = this.#o.retryBaseMs ?? 250;
    while (!this.#givenUp) {
      await this.#sleep(delay);
      if (this.#givenUp) break;
      delay = Math.min(5_000, delay * 2);
      try {
        const stored = await store.getRun(runId);
        if (stored !== undefined && stored.status !== "running") {
          this.#committed(messages);
          // Taken over meanwhile: the new owner requeued the reply with the session's other in-flight entries.
          if (this.#o.stillOwner?.() === false) return stored;
          const entries = await store.listOutbox({ sessionKey, status: "in-flight" });
          const mine = entries.filter((entry) => entry.runId === runId);
          logger.info({ sessionKey, runId, replies: mine.length }, "a turn's commit had applied: its reply goes out");
          if (mine.length > 0) this.#o.onCommitted(mine);
          return stored;
        }
        const run = await attempt();
        logger.info({ sessionKey, runId }, "persisted a turn once the store was back");
        return run;
      } catch (error) {
        if (isSessionStoreError(error, "fenced")) {
          logger.error({ sessionKey, runId, error: describeError(error) }, "could not persist a turn");
          this.#o.onFenced?.();
          return undefined;
        }
        logger.warn({ sessionKey, runId, error: describeError(error) }, "still could not persist a turn");
      }
    }
    return undefined;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  #entry(kind: "reply" | "notice", text: string, previews: readonly SentMessage[]): NewOutboxEntry {
    const { chat, sessionKey, runId } = this.#o;
    const payload: ChatDeliveryPayload = {
      channel: chat.channel,
      accountId: chat.accountId,
      target: chat.target,
      text,
      ...(previews.length > 0
        ? { editMessageIds: previews.map((m) => m.messageId), editSentAt: previews.map((m) => m.sentAt) }
        : {}),
    };
    const traceparent = this.#traceparent;
    return traceparent === undefined
      ? { sessionKey, runId, kind, payload }
      : { sessionKey, runId, kind, payload, traceparent };
  }

  #persistCompaction(messages: AgentMessage[]): void {
    const { store, sessionKey } = this.#o;
    this.#pending = [];
    const snapshot = messages.slice();
    this.#chain = this.#chain.then(async () => {
      try {
        // One write, fenced like every commit: an instance that lost the session cannot rewrite its transcript.
        await store.commitTurn({
          sessionKey,
          messages: snapshot,
          startsTranscript: true,
          ...(this.#o.fence === undefined ? {} : { fence: this.#o.fence }),
        });
        for (const message of snapshot) this.#o.stored.add(message as object);
      } catch (error) {
        this.#o.logger.error({ sessionKey, error: describeError(error) }, "could not persist a compaction");
        if (isSessionStoreError(error, "fenced")) this.#o.onFenced?.();
      }
    });
  }
}

/** The store status for how a run ended. */
export function runStatusOf(reason: AgentRunResult["reason"]): EndedRunStatus {
  if (reason === "aborted") return "aborted";
  if (reason === "error") return "failed";
  return "completed";
}
