import type { Channel, InboundMessage } from "@chorus/channel";
import { localIngress } from "@chorus/channel";
import type { OutboxEntry, SessionStore } from "@chorus/store";
import { SubagentSlots } from "@chorus/tools";
import { ApprovalDesk } from "../approvals/approval-desk.js";
import { BUILTIN_COMMANDS } from "../commands/builtin-commands.js";
import type { GatewayConfig } from "../config/gateway-config-schema.js";
import { loadGatewayConfig } from "../config/load-gateway-config.js";
import { ChatNotices } from "../delivery/chat-notices.js";
import { OutboxDispatcher } from "../delivery/outbox-dispatcher.js";
import { GatewayEventBus } from "../events/gateway-event-bus.js";
import {
  type ExtensionStartContext,
  type GatewayExtension,
  type RegisteredExtensions,
  registerExtensions,
  runLifecycle,
  runSessionIdle,
  startExtensions,
  stopExtensions,
  wrapStreamFn,
} from "../extension/index.js";
import { reportedRuns } from "../fleet/cluster-placement.js";
import type { FleetView } from "../fleet/fleet-view.js";
import { RunTracker } from "../fleet/run-tracker.js";
import { StoreHousekeeper } from "../housekeeping/store-housekeeper.js";
import { FairAdmission } from "../lanes/fair-admission.js";
import { type GatewayLogger, SILENT_LOGGER } from "../logging/gateway-logger.js";
import { cappedStreamFn } from "../model-calls/output-cap.js";
import { findChosenModel } from "../model-preference/model-preference.js";
import { PairingService } from "../policy/pairing/pairing-service.js";
import { loopWithTelemetry } from "../telemetry/agent-telemetry.js";
import { observeGateway } from "../telemetry/gateway-instruments.js";
import { clusterContextParts } from "./cluster-request-answers.js";
import { extensionAgentParts } from "./extension-agent-parts.js";
import { extensionChats } from "./extension-chats.js";
import { extensionStartContext } from "./extension-start-context.js";
import { featureTurnHooks } from "./feature-turn-hooks.js";
import { fleetOf, killRunTree } from "./fleet-control.js";
import { createCommandHost } from "./gateway-command-host.js";
import { channelKey, type GatewayContext } from "./gateway-context.js";
import { GATEWAY_DEFAULTS, type GatewayOptions } from "./gateway-options.js";
import { InboundIntake } from "./inbound-intake.js";
import { receiveInbound } from "./inbound-sink.js";
import { OwnedSessionWork } from "./owned-session-work.js";
import { type PreparedAgent, prepareAgent } from "./prepare-agent.js";
import { recoverAfterRestart, resumeAfterRestart } from "./restart-recovery.js";
import { SessionRateCap } from "./session-rate-cap.js";
import { SessionRegistry } from "./session-registry.js";
import type { SessionRuntimeDeps } from "./session-runtime-deps.js";
import { acceptSubagentResult } from "./subagent-result-intake.js";

/** In a cluster, how long a DM sender's approval read from the store is used: another instance's change shows within it. */
const CLUSTER_APPROVAL_CACHE_MS = 5000;

/**
 * The chat gateway: takes messages from channels and answers them with agents. Pipeline: dedupe by event id
 * (durable, in the store) → inbound policy (own/bot messages, bot hop limit, DM pairing/allowlist, group allowlist,
 * mention gating) → route (bindings) → per-session rate cap → builtin command, or the message is stored and queued
 * in its session's lane → a turn on the session's Agent → replies through the outbox.
 * This class is the composition root: it wires the collaborators (`InboundIntake`, `SessionRegistry`, `ChatNotices`,
 * restart recovery, the command host, sub-agent results, the outbox dispatcher) and owns start, stop and idle.
 * Contract: a user's message is in the store before any model call; each turn's messages, run status and reply
 * outbox entries are written in one transaction; replies leave only through the outbox; idle sessions keep no Agent.
 */
export class Gateway {
  readonly config: GatewayConfig;
  readonly store: SessionStore;
  readonly events: GatewayEventBus;
  /** Runs live in this process (root runs and sub-agents). */
  readonly runs = new RunTracker();
  readonly pairing: PairingService;
  /** Tool calls waiting for a person's approval, shown in their chats. */
  readonly approvals: ApprovalDesk;
  readonly #options: GatewayOptions;
  readonly #logger: GatewayLogger;
  readonly #channels = new Map<string, Channel>();
  readonly #agents = new Map<string, PreparedAgent>();
  readonly #sessions: SessionRegistry;
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #dispatcher: OutboxDispatcher;
  #unobserve: (() => void) | undefined;
  readonly #context: GatewayContext;
  readonly #intake: InboundIntake;
  readonly #owned: OwnedSessionWork | undefined;
  #accepting = false;
  #redeliverTimer: ReturnType<typeof setInterval> | undefined;
  readonly #housekeeper: StoreHousekeeper | undefined;
  readonly #extensions: RegisteredExtensions;
  /** What each extension gets at start: chats, the store, the model calls, sessions, the clock and logger. */
  readonly #extensionContext: (extension: GatewayExtension) => ExtensionStartContext;

  /** Contract: throws GatewayConfigError for an invalid config or an agent whose model is unknown. */
  constructor(options: GatewayOptions) {
    this.#options = options;
    this.config = loadGatewayConfig(options.config);
    this.store = options.store;
    this.events = options.events ?? new GatewayEventBus();
    this.#logger = options.logger ?? SILENT_LOGGER;
    const extensions = registerExtensions(
      options.extensions ?? [],
      BUILTIN_COMMANDS.map((command) => command.name),
    );
    this.#extensions = extensions;
    const now = options.now ?? Date.now;
    const track = (work: Promise<unknown>): void => this.#track(work);
    const deliver = (entries: readonly OutboxEntry[], onFirstChunk?: () => void): void =>
      this.#track(this.#dispatcher.deliver(entries, onFirstChunk));
    const channelFor = (channel: string, accountId: string) => this.#channels.get(channelKey(channel, accountId));
    const notices = new ChatNotices({ store: this.store, logger: this.#logger, deliver, track });
    // One gateway per store (no shared ownership): it writes every approval, so it may keep them in memory. In a
    // cluster others write them too: kept a few seconds, so a DM costs no approval read per message.
    this.pairing = new PairingService(options.store, {
      now,
      cacheApprovals: options.store.ownership === undefined ? true : { forMs: CLUSTER_APPROVAL_CACHE_MS },
      ...options.pairing,
    });
    this.approvals = new ApprovalDesk({
      post: (sessionKey, chat, text, options) => notices.post(sessionKey, chat, text, options),
      replace: (posted, text) => notices.replace(posted, text),
      hasButtons: (chat) => channelFor(chat.channel, chat.accountId)?.capabilities.buttons === true,
      now,
    });
    const admission = new FairAdmission(options.maxConcurrentTurns ?? GATEWAY_DEFAULTS.maxConcurrentTurns);
    const rateCap = options.rateCap ?? GATEWAY_DEFAULTS.rateCap;
    for (const channel of options.channels) this.#channels.set(channelKey(channel.id, channel.accountId), channel);
    this.#dispatcher = new OutboxDispatcher({
      store: this.store,
      channelFor,
      events: this.events,
      acceptSubagentResult: (entry) => acceptSubagentResult(this.#context, entry),
      logger: this.#logger,
      now,
      ...options.outbox,
    });
    this.#housekeeper =
      options.housekeeping === false
        ? undefined
        : new StoreHousekeeper({
            store: this.store,
            now,
            logger: this.#logger,
            ...(options.housekeeping === undefined ? {} : { options: options.housekeeping }),
          });
    // Every model call of a session (its turns, sub-agents, side calls) is capped at its agent's output limit, then
    // goes through the extensions' wrappers in their order (a budget's reservation first, when one is given first).
    const maxOutputOf = (agentId: string | undefined) =>
      agentId === undefined ? undefined : this.#agents.get(agentId)?.config.maxOutputTokens;
    const streamFn = cappedStreamFn(wrapStreamFn(extensions, options.streamFn), maxOutputOf);
    this.#extensionContext = extensionStartContext(
      () => this.#context,
      extensionChats(this.store, notices, channelFor),
      (sessionKey) => this.#owns(sessionKey),
    );
    const slots = options.subagentSlots ?? new SubagentSlots();
    const loop = loopWithTelemetry(options.loop, options.telemetry);
    for (const agent of this.config.agents) {
      this.#agents.set(
        agent.id,
        prepareAgent(
          agent,
          options.agents?.[agent.id],
          {
            models: options.models,
            streamFn,
            store: this.store,
            events: this.events,
            runs: this.runs,
            logger: this.#logger,
            now,
            slots,
            loop,
            // In a cluster a result goes into its parent's session at that session's owner: one not owned here stays
            // pending for the owner's outbox poll (the parent's instance may be gone; the owner may be another).
            onEnqueued: (entries) => deliver(entries.filter((entry) => this.#owns(entry.sessionKey))),
            subagentEnded: (child) => track(runSessionIdle(extensions, child, this.#logger, "subagentEnded")),
          },
          extensionAgentParts(extensions, agent.id),
        ),
      );
    }
    const deps: SessionRuntimeDeps = {
      store: this.store,
      events: this.events,
      runs: this.runs,
      logger: this.#logger,
      now,
      admission,
      streamFn,
      loop,
      resolveModel: (id) => findChosenModel(options.models, id),
      channelFor,
      deliver,
      notice: (sessionKey, chat, text) => notices.post(sessionKey, chat, text),
      notices,
      onIdle: (runtime) => this.#sessions.onIdle(runtime),
      track,
      replyMode: options.replyMode ?? "preview",
      typingDelayMs: options.typingDelayMs ?? GATEWAY_DEFAULTS.typingDelayMs,
      turnTimeoutMs: options.turnTimeoutMs ?? GATEWAY_DEFAULTS.turnTimeoutMs,
      ...(options.turnStartRetry === undefined ? {} : { turnStartRetry: options.turnStartRetry }),
      maxQueued: options.maxQueuedPerSession ?? GATEWAY_DEFAULTS.maxQueuedPerSession,
      collectDebounceMs: options.collectDebounceMs ?? GATEWAY_DEFAULTS.collectDebounceMs,
      approvals: this.approvals,
      turnHooks: featureTurnHooks(this.#logger, track, extensions),
      ...(this.store.ownership === undefined ? {} : { ownership: this.store.ownership }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    };
    this.#sessions = new SessionRegistry({
      config: this.config,
      agents: this.#agents,
      idleEvictMs: options.idleEvictMs ?? GATEWAY_DEFAULTS.idleEvictMs,
      runtimeDeps: () => deps,
      onEvicted: (session) => track(runSessionIdle(extensions, session, this.#logger)),
    });
    this.#context = {
      config: this.config,
      options,
      store: this.store,
      events: this.events,
      runs: this.runs,
      pairing: this.pairing,
      approvals: this.approvals,
      logger: this.#logger,
      now,
      agents: this.#agents,
      sessions: this.#sessions,
      notices,
      extensions,
      streamFn,
      channelFor,
      track,
      ...clusterContextParts(this.store.ownership, () => this.#context, track),
    };
    const commandHost = createCommandHost(this.#context, {
      fleet: () => this.fleet(),
      killRun: (runId) => this.killRun(runId),
    });
    this.#owned =
      this.store.ownership === undefined
        ? undefined
        : new OwnedSessionWork(this.#context, this.#dispatcher, this.store.ownership);
    this.#intake = new InboundIntake(
      this.#context,
      commandHost,
      rateCap === false ? undefined : new SessionRateCap(rateCap),
    );
  }

  /** Sessions with live state (a lane or an Agent) in memory. */
  get activeSessionCount(): number {
    return this.#sessions.size;
  }

  /** Whether a session currently holds an Agent in memory. */
  hasAgentInMemory(sessionKey: string): boolean {
    return this.#sessions.get(sessionKey)?.agent !== undefined;
  }

  /**
   * Drops the in-memory state (lane, Agent) of every idle session now, instead of after `idleEvictMs`.
   * Contract: busy sessions are kept; returns how many sessions were dropped.
   */
  evictIdleSessions(): number {
    return this.#sessions.evictIdle();
  }

  /**
   * Recovers from a previous process (runs left running are marked interrupted and their chats told, their open
   * approval requests settled; outbox entries left in flight are requeued), starts every channel, then delivers the
   * outbox: what waited from before the restart first, then the restart's notices. Last, running autonomous goals
   * resume (once each) or are marked orphaned when their session can no longer run.
   */
  async start(): Promise<void> {
    // In a cluster, recovery is per session taken over (OwnedSessionWork), never of the whole store: other instances'
    // runs and deliveries are live.
    const ownership = this.store.ownership;
    if (ownership !== undefined) this.#dispatcher.adoptRequeued([]);
    const resume = ownership === undefined ? await recoverAfterRestart(this.#context, this.#dispatcher) : [];
    this.#redeliverTimer = setInterval(() => {
      for (const agent of this.#agents.values()) void agent.subagents?.redeliver();
    }, this.#options.outbox?.pollMs ?? 1000);
    this.#redeliverTimer.unref?.();
    this.#housekeeper?.start();
    // Before the channels: an extension's commands and hooks may be used by the first message.
    await startExtensions(this.#extensions, this.#extensionContext, this.#logger);
    this.#accepting = true;
    this.#unobserve ??= observeGateway({
      sessions: () => this.#sessions.size,
      runs: () => this.runs.size,
      outboxBacklog: () => this.#dispatcher.backlog,
    });
    // Consumers a platform allows once per account (a long poll, a Discord shard) run where their ingress lease is.
    const context = { ingress: ownership?.ingress ?? localIngress };
    for (const channel of this.#channels.values()) {
      await channel.start((message) => this.handleInbound(message), context);
    }
    await this.#dispatcher.start();
    const owned = this.#owned;
    // Each heartbeat reports the runs live here, for /agents on the other instances.
    ownership?.fleet?.reportRuns(() => reportedRuns(this.runs));
    if (ownership !== undefined && owned !== undefined) {
      await ownership.start(
        (event) => owned.onEvent(event),
        () => this.runs.all().map((run) => run.sessionKey),
      );
    }
    for (const resumed of resume) await resumeAfterRestart(this.#context, resumed);
    // Last: what extensions resume themselves (autonomous goals, missed schedules) finds the channels running.
    await runLifecycle(this.#extensions, "started", this.#logger);
  }

  /**
   * Stops taking messages (and the extensions' background work), lets running turns finish for up to `deadlineMs` (then
   * stops them), and stops the channels and the outbox. Contract: nothing in the outbox is lost (undelivered entries
   * stay pending).
   */
  async stop(deadlineMs = 10_000): Promise<void> {
    this.#accepting = false;
    // Extensions end their background work (memory's extraction passes, autonomous goals' next turns, schedules)
    // before the running turns are waited for.
    await runLifecycle(this.#extensions, "stopping", this.#logger);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, deadlineMs);
    });
    await Promise.race([this.idle(), deadline]);
    clearTimeout(timer);
    for (const runtime of this.#sessions.values()) {
      runtime.lane.clear();
      runtime.stop("shutdown", "the gateway is shutting down");
    }
    await runLifecycle(this.#extensions, "turnsOver", this.#logger);
    await this.idle();
    if (this.#redeliverTimer !== undefined) clearInterval(this.#redeliverTimer);
    await this.#housekeeper?.stop();
    // The outbox stops before the channels: a retry falling due while a channel shuts down (a Telegram long poll can
    // take seconds to end) would be refused by it and given up; unsent, it stays pending for the next start.
    await this.#dispatcher.stop();
    for (const channel of this.#channels.values()) await channel.stop();
    // While the store is open (an extension may write what it still holds, e.g. spend).
    await stopExtensions(this.#extensions, this.#logger);
    this.#sessions.clear();
    this.#unobserve?.();
    this.#unobserve = undefined;
    // Turns are over: the leases go at once, so another instance takes these sessions without waiting for expiry.
    await this.store.ownership?.stop();
  }

  /** Resolves when no turn runs, no delivery is under way and no background work (extensions' `track`) is pending. */
  async idle(): Promise<void> {
    for (let quiet = 0; quiet < 3; ) {
      if (this.#inflight.size > 0) {
        quiet = 0;
        await Promise.allSettled([...this.#inflight]);
        continue;
      }
      await this.#dispatcher.idle();
      for (let i = 0; i < 10; i++) await Promise.resolve();
      quiet = this.#inflight.size === 0 ? quiet + 1 : 0;
    }
  }

  /**
   * The channel sink: every inbound message enters here. Contract: rejects only with `MessageNotStoredError` (a
   * message with `platformRedelivers` that could not be stored: answer the platform with its retry signal); other
   * failures are logged.
   */
  async handleInbound(message: InboundMessage): Promise<void> {
    // A gateway that is stopping still stores what its channels take (they ack it to the platform), and starts no turn
    // for it: the session's next owner (in a cluster) or the next start (told, or answered with onRestart "resume")
    // answers it.
    const draining = !this.#accepting;
    const parts = { intake: this.#intake, logger: this.#logger, track: (work: Promise<unknown>) => this.#track(work) };
    await receiveInbound({ ...parts, telemetry: this.#options.telemetry }, message, draining);
  }

  /** The fleet as /agents shows it. */
  fleet(): Promise<FleetView> {
    return fleetOf(this.#context);
  }

  /**
   * Stops a run and every run below it, in this process or in the cluster instance running it; the affected chat is
   * told. Contract: `killed` lists the stopped run ids, the run itself first; empty when no instance holds the run.
   */
  killRun(runId: string): Promise<{ killed: string[]; instance?: string; unanswered?: boolean }> {
    return killRunTree(this.#context, runId);
  }

  /** Whether this instance may run turns for the session now (always, outside a cluster). */
  #owns(sessionKey: string): boolean {
    const ownership = this.store.ownership;
    return ownership === undefined || ownership.fenceFor(sessionKey) !== undefined;
  }

  #track(work: Promise<unknown>): void {
    this.#inflight.add(work);
    void work.finally(() => this.#inflight.delete(work)).catch(() => {});
  }
}
