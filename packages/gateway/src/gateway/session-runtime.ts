import type { Agent, AgentEvent, AgentRunResult, Model } from "@chorus/core";
import type { QueueMode, SessionRecord, StoreFence, TranscriptEntry, TrustTier } from "@chorus/store";
import { timeOrderedId } from "@chorus/store";
import { sessionStatusLine } from "../compaction/compaction-status-line.js";
import { type LaneHost, type LaneItem, lowerTier } from "../lanes/lane-item.js";
import { SessionLane } from "../lanes/session-lane.js";
import { describeError } from "../logging/gateway-logger.js";
import { restoredModelChoice } from "../model-preference/model-preference.js";
import { endNotice, type RunStopCause } from "../reply-manager/failure-notice.js";
import { ReplyManager } from "../reply-manager/reply-manager.js";
import { TurnCommitter } from "../reply-manager/turn-committer.js";
import { TurnTrace } from "../telemetry/turn-trace.js";
import type { PreparedAgent } from "./prepare-agent.js";
import { approvalsFollow, type LastCompaction, observeRunEvent, whenCallStored } from "./run-events.js";
import { buildSessionAgent, extensionParts } from "./session-agent.js";
import type { SessionChat, SessionRuntimeDeps } from "./session-runtime-deps.js";
import { laterSeq, seqOf, TakenMessages } from "./taken-messages.js";
import { turnStartRetryDelay } from "./turn-start-retry.js";

export type { SessionChat, SessionRuntimeDeps } from "./session-runtime-deps.js";

/** A turn under way. */
interface CurrentRun {
  readonly runId: string;
  cause: RunStopCause;
  /** The highest seq of the stored user messages the run took in (prompts, steered messages). */
  answersSeq: number | undefined;
  /** The people whose messages started the run (none for a goal's or a schedule's own turn). */
  readonly starterIds: readonly string[];
}

/**
 * The live state of one active session: its lane and, while it is active, its `Agent` (built lazily from the stored
 * transcript, with the stored /model override, and dropped when the session goes idle). Runs each turn: run record
 * written as running first, events to the reply manager and the committer, the end persisted with the last reply.
 * Contract: one turn at a time (the lane); messages handed to `accept` must already be in the store.
 */
export class SessionRuntime implements LaneHost {
  readonly key: string;
  readonly agentId: string;
  readonly chat: SessionChat;
  readonly lane: SessionLane;
  /** The run's meta, read by the policies at call time (trust tier, group tool policy). */
  readonly meta: Record<string, unknown> = {};
  readonly #deps: SessionRuntimeDeps;
  readonly #prepared: PreparedAgent;
  readonly #taken = new TakenMessages();
  /** In a cluster, the lease epoch the Agent in memory was built under. */
  #agentEpoch: number | undefined;
  /** Made for the message that created the session (under this lease epoch): its first turn reads no transcript. */
  #createdBy: { readonly seq: number; readonly epoch: number | undefined } | undefined;
  #agent: Agent | undefined;
  #tools: PreparedAgent["tools"] = []; // the Agent's: the agent's own and the extensions' session tools
  #unlink: (() => void) | undefined;
  #current: CurrentRun | undefined;
  /** The /compact under way, if any: `stop` aborts it. */
  #compaction: AbortController | undefined;
  #committer: TurnCommitter | undefined;
  #nextRunId = "";
  /** The turn under way's telemetry: its run takes the turn's `invoke_agent` span from it. */
  #turnTrace: TurnTrace | undefined;
  #turn: Promise<void> | undefined;
  /** Failed turn starts in a row (the store did not answer); 0 once a turn starts. */
  #startFailures = 0;
  #modelOverride: string | undefined;
  #groupToolPolicy: unknown;
  /** Last compaction of this session, for /status. */
  lastCompaction: LastCompaction | undefined;

  constructor(
    deps: SessionRuntimeDeps,
    prepared: PreparedAgent,
    session: SessionRecord,
    chat: SessionChat,
    mode: QueueMode,
    groupToolPolicy: unknown,
    createdBy?: { readonly seq: number; readonly epoch: number | undefined },
  ) {
    this.#deps = deps;
    this.#createdBy = createdBy;
    this.#prepared = prepared;
    this.key = session.key;
    this.agentId = session.agentId;
    this.chat = chat;
    this.#modelOverride = restoredModelChoice(prepared.config, session, { find: deps.resolveModel });
    this.#groupToolPolicy = groupToolPolicy;
    this.lane = new SessionLane(this, deps.admission, {
      mode: session.queueModeOverride ?? mode,
      maxQueued: deps.maxQueued,
      collectDebounceMs: deps.collectDebounceMs,
    });
  }

  /** The model the next turn uses: the session's /model override when known, else the agent's. */
  get model(): Model {
    const override = this.#modelOverride === undefined ? undefined : this.#deps.resolveModel(this.#modelOverride);
    return override ?? this.#prepared.defaultModel;
  }

  get agent(): Agent | undefined {
    return this.#agent;
  }

  get currentRunId(): string | undefined {
    return this.#current?.runId;
  }

  /** Who started the running turn (their messages are its prompt); undefined while no turn runs. */
  get runStarterIds(): readonly string[] | undefined {
    return this.#current?.starterIds;
  }

  /** Takes a stored message (with its seq) into the lane. */
  accept(item: LaneItem & { seq?: number }): void {
    if (!this.#taken.take(item)) {
      item.trace?.duplicate();
      return;
    }
    this.lane.enqueue(item);
  }

  /** Whether the stored message with this seq was taken in (queued, running, or answered by this runtime). */
  hasTaken(seq: number): boolean {
    return this.#taken.has(seq);
  }

  /**
   * Drops the queued messages, which stay stored and unanswered, for the session's new owner (a cluster instance that
   * lost the session). Contract: the running turn, if any, goes on; its commit is fenced if the session was taken.
   */
  giveBackQueued(): void {
    for (const item of this.lane.clear()) {
      item.trace?.handedOff();
      this.#taken.forget(item);
    }
  }

  /** Switches the model of this session (already stored by the caller). */
  setModel(id: string | undefined): void {
    this.#modelOverride = id;
    this.#agent?.setModel(this.model);
  }

  /**
   * Stops the running turn and the sub-agents under it, or a /compact under way. Contract: false when nothing was
   * running.
   */
  stop(cause: RunStopCause, reason = "stopped"): boolean {
    // A /compact under way (no turn runs meanwhile) stops too; a message arriving in `interrupt` mode waits for it.
    if (this.#compaction !== undefined && cause !== "interrupt") {
      this.#compaction.abort(reason);
      return true;
    }
    const current = this.#current;
    if (current === undefined || this.#agent === undefined) return false;
    // A shutdown does not wait for a store that does not answer: the turn's messages stay stored, unanswered.
    if (cause === "shutdown") this.#committer?.giveUp();
    current.cause ??= cause;
    this.#agent.abort(reason);
    this.#prepared.subagents?.cancelChildren(current.runId, reason);
    return true;
  }

  /**
   * Runs a manual compaction (/compact, as a lane item) with a signal that `stop` aborts (/stop, /new, shutdown).
   * Contract: one at a time, as the lane runs one item at a time.
   */
  async stoppableCompaction<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.#compaction = controller;
    try {
      return await work(controller.signal);
    } finally {
      this.#compaction = undefined;
    }
  }

  /** Forgets the Agent (the next turn rebuilds it from the store). Contract: only while no turn runs. */
  dropAgent(): void {
    if (this.#current !== undefined) return;
    this.#createdBy = undefined;
    this.#unlink?.();
    this.#unlink = undefined;
    this.#agent = undefined;
  }

  /**
   * Whether this turn must not start because the session is not (or no longer, under the same fence) this instance's:
   * then its messages are given back, stored and unanswered, for the owner. Always false without ownership.
   */
  #leftToOwner(items: readonly LaneItem[], fence: StoreFence | undefined): boolean {
    const ownership = this.#deps.ownership;
    if (ownership === undefined) return false;
    if (fence !== undefined && ownership.fenceFor(this.key)?.epoch === fence.epoch) return false;
    for (const item of items) this.#taken.forget(item);
    this.giveBackQueued();
    this.#deps.logger.info({ sessionKey: this.key }, "not the session's owner any more: its messages are left to it");
    this.#turnEnded(items, undefined);
    return true;
  }

  /**
   * The turn's end was never stored (refused as `fenced`, or given up while the store did not answer): its messages
   * are stored and unanswered, so they may be taken again (a sweep, the next owner) — and the Agent, whose memory
   * holds the unstored answer, is rebuilt from the store.
   */
  #uncommitted(items: readonly LaneItem[]): void {
    for (const item of items) this.#taken.forget(item);
    this.dropAgent();
  }

  // ── LaneHost ──────────────────────────────────────────────────────────────

  steer(item: LaneItem): boolean {
    const agent = this.#agent;
    if (agent === undefined || this.#current === undefined || !agent.state.isRunning) return false;
    // A steered message joins a live run: the run drops to the lower of the two tiers.
    this.meta.trustTier = lowerTier(this.meta.trustTier as TrustTier, item.trust);
    this.#current.answersSeq = laterSeq(this.#current.answersSeq, (item as { seq?: number }).seq);
    agent.steer(item.message);
    return true;
  }

  interrupt(): void {
    this.stop("interrupt", "interrupted by a new message");
  }

  dropped(item: LaneItem): void {
    item.trace?.dropped();
    if (item.source === "goal") this.#turnEnded([item], undefined);
    this.#deps.logger.warn({ sessionKey: this.key, senderId: item.senderId }, "queue full: dropped the oldest message");
    this.#deps.notice(
      this.key,
      this.chat,
      `Too many messages are waiting here; I dropped the oldest one${item.senderId === undefined ? "" : ` (from ${item.senderId})`}. Please send it again later.`,
    );
  }

  idle(): void {
    this.#deps.onIdle(this);
  }

  runTurn(items: LaneItem[], releaseSlot: () => void): Promise<void> {
    const trace = new TurnTrace(items, this.agentId);
    const turn = trace.run(() => this.#runTurn(items, releaseSlot, trace));
    this.#turn = turn;
    this.#deps.track(turn);
    return turn;
  }

  /** Resolves when the turn under way (if any) has ended and been persisted. */
  async settled(): Promise<void> {
    await this.#turn?.catch(() => {});
  }

  /** The Agent, built from the store if it is not in memory. Contract: do not call while a turn starts. */
  loadAgent(): Promise<Agent> {
    return this.#ensureAgent();
  }

  async #runTurn(items: LaneItem[], releaseSlot: () => void, trace: TurnTrace): Promise<void> {
    const deps = this.#deps;
    // Time-ordered: the store's run index grows at its right edge (a random UUID dirties a random page per turn).
    const runId = timeOrderedId("run_");
    let agent: Agent;
    let answersSeq: number | undefined;
    // In a cluster, a turn starts only while this instance surely owns the session (before its lease could expire).
    const fence = deps.ownership?.fenceFor(this.key);
    if (this.#leftToOwner(items, fence)) return;
    // The session's first turn, on the message that created it, under the same lease: nothing to read.
    const createdBy = this.#createdBy;
    this.#createdBy = undefined;
    // Another epoch: the session was another instance's in between, which answered in it — rebuild from the store.
    if (fence !== undefined && this.#agentEpoch !== fence.epoch) {
      this.dropAgent();
      this.#agentEpoch = fence.epoch;
    }
    const historyKnownEmpty =
      createdBy !== undefined && createdBy.epoch === fence?.epoch && items.some((i) => seqOf(i) === createdBy.seq);
    try {
      agent = await this.#ensureAgent(
        items.reduce<number | undefined>((last, item) => laterSeq(last, seqOf(item)), undefined),
        historyKnownEmpty,
      );
      // Checked again after the transcript read, right before the run is written: ownership may have moved meanwhile.
      if (this.#leftToOwner(items, fence)) return;
      for (const item of items) {
        this.#taken.started(item);
        answersSeq = laterSeq(answersSeq, seqOf(item));
      }
      this.meta.trustTier = items.map((item) => item.trust).reduce(lowerTier);
      if (this.#groupToolPolicy === undefined) delete this.meta.groupToolPolicy;
      else this.meta.groupToolPolicy = this.#groupToolPolicy;
      const systemPrompt = await deps.turnHooks?.systemPromptFor(this, this.#prepared.config.systemPrompt, items);
      if (systemPrompt !== undefined) agent.setSystemPrompt(systemPrompt);
      const tools = deps.turnHooks?.toolsFor?.(this.key, this.#tools);
      if (tools !== undefined) agent.setTools([...tools]);
      // No `startRun` here: the run is written by the turn's first commit (one round trip less per message), fenced
      // with it. Until then it is live in `deps.runs` only; a crash before that commit leaves nothing of the turn in
      // the store but its unanswered messages, which restart recovery or a takeover answers.
    } catch (error) {
      const retryInMs = turnStartRetryDelay(error, ++this.#startFailures, deps.turnStartRetry);
      if (retryInMs !== undefined) {
        deps.logger.warn(
          { sessionKey: this.key, error: describeError(error), retryInMs },
          "could not start a turn (the store did not answer): starting it again",
        );
        for (const item of items) this.#taken.pendingAgain(item);
        // The gateway is not idle while a turn waits to start again.
        deps.track(this.lane.retryFirst(items, retryInMs));
        return;
      }
      this.#startFailures = 0;
      deps.logger.error({ sessionKey: this.key, error: describeError(error) }, "could not start a turn");
      deps.notice(this.key, this.chat, "Sorry, I could not start working on that. Please try again.");
      this.#turnEnded(items, undefined);
      return;
    }
    this.#startFailures = 0;
    const starterIds = items.flatMap((item) => (item.senderId === undefined ? [] : [item.senderId]));
    const current: CurrentRun = { runId, cause: undefined, answersSeq, starterIds };
    this.#current = current;
    // Read by propose_plan: only these people (and admins) may answer the run's plan.
    this.meta.starterIds = starterIds;
    deps.turnHooks?.turnStarted({ sessionKey: this.key, agentId: this.agentId, items });
    const startedAt = deps.now();
    deps.events.publish({
      type: "run_started",
      at: startedAt,
      runId,
      sessionKey: this.key,
      agentId: this.agentId,
      depth: 0,
    });
    const channel = deps.channelFor(this.chat.channel, this.chat.accountId);
    const replyTo = items.at(-1)?.replyToMessageId;
    const target = replyTo === undefined ? this.chat.target : { ...this.chat.target, replyToMessageId: replyTo };
    const chat = { ...this.chat, target };
    const replies =
      channel === undefined
        ? undefined
        : new ReplyManager({
            channel,
            target,
            mode: deps.replyMode,
            typingDelayMs: deps.typingDelayMs,
            now: deps.now,
            notify: (text) => deps.notice(this.key, chat, text),
            onChunkSent: trace.chunkReachedPlatform,
          });
    const committer = new TurnCommitter({
      store: deps.store,
      sessionKey: this.key,
      runId,
      startRunAs: this.agentId,
      stored: this.#taken.stored,
      chat,
      replies: replies ?? NO_REPLIES,
      answersSeq: () => current.answersSeq,
      ...(fence === undefined ? {} : { fence }),
      sideWritesFor: (messages) => deps.turnHooks?.sideWritesFor?.(this.key, messages),
      // Taken over by another instance: no tool of this run may act any more (the new owner answers the messages).
      onFenced: () => this.stop("interrupt", "another instance took this session over"),
      onCommitted: (entries) => deps.deliver(entries, trace.chunkReachedPlatform),
      logger: deps.logger,
      stillOwner: () => fence === undefined || deps.ownership?.fenceFor(this.key)?.epoch === fence.epoch,
    });
    this.#committer = committer;
    deps.runs.add({
      runId,
      sessionKey: this.key,
      agentId: this.agentId,
      depth: 0,
      startedAt,
      usage: () => agent.state.usage,
      abort: (reason) => this.stop("admin", reason),
    });
    const shown = this.#prepared.config.compaction.statusLine;
    const statusLine = shown ? sessionStatusLine(deps, this.key, chat, channel?.capabilities.edit ?? false) : undefined;
    const unsubscribe = agent.subscribe((event) => {
      replies?.onEvent(event);
      statusLine?.onEvent(event);
      committer.onEvent(event);
      this.#observe(runId, event);
      approvalsFollow(deps.approvals, event, { runId, sessionKey: this.key, chat, requesterIds: starterIds, agent });
    });
    const timer = setTimeout(() => this.stop("timeout", "the turn took too long"), deps.turnTimeoutMs);
    this.#nextRunId = runId;
    this.#turnTrace = trace;
    let result: AgentRunResult;
    try {
      result = await agent.prompt(items.map((item) => item.message));
    } finally {
      this.#turnTrace = undefined;
      clearTimeout(timer);
      unsubscribe();
      replies?.close();
      deps.runs.remove(runId);
      deps.approvals.closeRun(runId);
    }
    const notice = endNotice(result.reason, result.error, current.cause, result.messages);
    // The run's work is over: say so, and give the global slot to the next session while this turn is persisted (the
    // cap bounds concurrent model work; this session's next turn still waits for the commit, as the lane runs one
    // turn at a time).
    deps.events.publish({
      type: "run_ended",
      at: deps.now(),
      runId,
      sessionKey: this.key,
      outcome: result.reason === "aborted" ? "aborted" : result.reason === "error" ? "failed" : "completed",
      ...(result.error === undefined ? {} : { error: result.error }),
    });
    releaseSlot();
    const ended = await committer.finish(result, notice);
    this.#current = undefined;
    this.#committer = undefined;
    if (ended === undefined) this.#uncommitted(items);
    this.#turnEnded(items, result);
  }

  #turnEnded(items: readonly LaneItem[], result: AgentRunResult | undefined): void {
    this.#deps.turnHooks?.turnEnded({ sessionKey: this.key, agentId: this.agentId, chat: this.chat, items, result });
  }

  /**
   * Builds the Agent from the stored transcript unless it is in memory. Its history leaves out the user messages not
   * answered yet: those waiting in the lane, and those stored after the turn's last message (`upToSeq`; stored
   * meanwhile, or waiting for older ones to be taken up in a cluster): each is a prompt of its own turn later. With
   * `historyKnownEmpty` (the session's first turn: it holds only such messages) the transcript is not read.
   */
  async #ensureAgent(upToSeq?: number, historyKnownEmpty = false): Promise<Agent> {
    if (this.#agent !== undefined) return this.#agent;
    const entries = historyKnownEmpty ? [] : await this.#deps.store.readTranscript(this.key);
    const later = (entry: TranscriptEntry): boolean =>
      upToSeq !== undefined && entry.seq > upToSeq && entry.message.role === "user";
    const messages = entries
      .filter((entry) => !this.#taken.isPending(entry.seq) && !later(entry))
      .map((entry) => entry.message);
    const built = buildSessionAgent(this.#deps, this.#prepared, {
      sessionKey: this.key,
      agentId: this.agentId,
      model: this.model,
      messages,
      meta: this.meta,
      newRunId: () => this.#nextRunId,
      callStored: (toolCallId, signal) => whenCallStored(this.#committer, toolCallId, signal),
      runSpan: () => this.#turnTrace?.takeRunSpan(),
      extensions: await extensionParts(this.#deps, this),
      linkSubagents: (agent) => this.#prepared.subagents?.linkAgent(agent),
    });
    [this.#agent, this.#tools, this.#unlink] = [built.agent, built.tools, built.release];
    return built.agent;
  }

  #observe(runId: string, event: AgentEvent): void {
    this.lastCompaction = observeRunEvent(this.#deps, this, runId, event) ?? this.lastCompaction;
  }
}

/** The preview side of a reply manager for a session whose channel is gone: nothing to preview. */
const NO_REPLIES: Pick<ReplyManager, "previewing" | "takePreview"> = { previewing: false, takePreview: async () => [] };
