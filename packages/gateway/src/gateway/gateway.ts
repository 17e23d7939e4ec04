import {
  DEFAULT_SUMMARY_PROMPT,
  defaultConvertToLlm,
  estimateTokens,
  type Model,
  summarizeOlderMessages,
} from "@chorus/core";
import { SubagentSlots } from "@chorus/tools";
import { ApprovalDesk, type PostOptions } from "../approvals/approval-desk.js";
import { openApprovalRequests, withdrawUndeliveredRequests } from "../approvals/approvals-after-restart.js";
import type { Channel, InboundMessage, OutboundButton } from "../channel/channel-types.js";
import { isBuiltinCommand, runBuiltinCommand } from "../commands/builtin-commands.js";
import type { CommandHost, ModelSwitch, SessionStatus } from "../commands/command-types.js";
import { answerInteraction } from "../commands/interaction-reply.js";
import { parseCommand } from "../commands/parse-command.js";
import type { GatewayConfig, QueueMode } from "../config/gateway-config-schema.js";
import { loadGatewayConfig } from "../config/load-gateway-config.js";
import { type ChannelPolicy, resolveChannelPolicy } from "../config/resolve-channel-policy.js";
import { OutboxDispatcher } from "../delivery/outbox-dispatcher.js";
import { asChatPayload, asSubagentResultPayload, type ChatDeliveryPayload } from "../delivery/outbox-payloads.js";
import { GatewayEventBus } from "../events/gateway-event-bus.js";
import { buildFleetView, type FleetView } from "../fleet/fleet-view.js";
import { RunTracker } from "../fleet/run-tracker.js";
import { StoreHousekeeper } from "../housekeeping/store-housekeeper.js";
import { FairAdmission } from "../lanes/fair-admission.js";
import { BotLoopBrake } from "../policy/bot-loop-brake.js";
import { decideInbound } from "../policy/decide-inbound.js";
import { OneTimeHints } from "../policy/one-time-hints.js";
import { PairingService } from "../policy/pairing/pairing-service.js";
import type { PairingScope } from "../policy/pairing/pairing-types.js";
import { resolveQueueMode, routeInbound } from "../routing/route-inbound.js";
import { isSubagentKey, rootKeyOf } from "../session-key/session-key-lineage.js";
import type { SessionStore } from "../store/session-store.js";
import { isSessionStoreError } from "../store/session-store-error.js";
import type { OutboxEntry, SessionRecord } from "../store/store-types.js";
import { subagentResultMessage } from "../subagent-sessions/subagent-result-message.js";
import { generateSessionTitle } from "../titles/session-title.js";
import { describeError, type GatewayLogger, SILENT_LOGGER } from "./gateway-logger.js";
import { GATEWAY_DEFAULTS, type GatewayOptions } from "./gateway-options.js";
import { inboundUserMessage } from "./inbound-user-message.js";
import { tellMessageNotStored } from "./message-not-stored.js";
import { type PreparedAgent, prepareAgent } from "./prepare-agent.js";
import { repairInterruptedTranscript } from "./restart-repair.js";
import { sessionChatOf } from "./session-chat.js";
import { SessionRateCap } from "./session-rate-cap.js";
import { type SessionChat, SessionRuntime, type SessionRuntimeDeps } from "./session-runtime.js";

/** Tokens kept verbatim by /compact. */
const COMPACT_KEEP_RECENT_TOKENS = 4_000;
const RESTART_NOTICE = "I was restarted while working on this — reply 'continue' to pick up.";
const RESUME_NOTICE = "I was restarted while working on this — picking up where I left off.";
const UNANSWERED_NOTICE = "I was restarted before I could answer — reply 'continue' and I will.";
const UNANSWERED_RESUME_NOTICE = "I was restarted before I could answer — answering now.";
/** What the model reads when an interrupted run resumes by itself. */
const RESUME_PROMPT =
  "[The gateway restarted while you were working on this. Continue where you left off; a tool that was running may or may not have finished.]";

/**
 * The chat gateway: takes messages from channels and answers them with agents. Pipeline: dedupe by event id
 * (durable, in the store) → inbound policy (own/bot messages, bot hop limit, DM pairing/allowlist, group allowlist,
 * mention gating) → route (bindings) → per-session rate cap → builtin command, or the message is stored and queued
 * in its session's lane → a turn on the session's Agent → replies through the outbox.
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
  readonly #now: () => number;
  readonly #channels = new Map<string, Channel>();
  readonly #agents = new Map<string, PreparedAgent>();
  readonly #sessions = new Map<string, SessionRuntime>();
  readonly #evictions = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #admission: FairAdmission;
  readonly #dispatcher: OutboxDispatcher;
  readonly #brake = new BotLoopBrake();
  readonly #hints = new OneTimeHints();
  readonly #rateCap: SessionRateCap | undefined;
  readonly #deps: SessionRuntimeDeps;
  readonly #commandHost: CommandHost;
  #accepting = false;
  #redeliverTimer: ReturnType<typeof setInterval> | undefined;
  readonly #housekeeper: StoreHousekeeper | undefined;

  /** Contract: throws GatewayConfigError for an invalid config or an agent whose model is unknown. */
  constructor(options: GatewayOptions) {
    this.#options = options;
    this.config = loadGatewayConfig(options.config);
    this.store = options.store;
    this.events = options.events ?? new GatewayEventBus();
    this.#logger = options.logger ?? SILENT_LOGGER;
    this.#now = options.now ?? Date.now;
    this.pairing = new PairingService(options.store, { now: this.#now, ...options.pairing });
    this.approvals = new ApprovalDesk({
      post: (sessionKey, chat, text, options) => this.#notice(sessionKey, chat, text, options),
      replace: (posted, text) => this.#replaceNotice(posted, text),
      hasButtons: (chat) => this.#channels.get(channelKey(chat.channel, chat.accountId))?.capabilities.buttons === true,
      now: this.#now,
    });
    this.#admission = new FairAdmission(options.maxConcurrentTurns ?? GATEWAY_DEFAULTS.maxConcurrentTurns);
    const rateCap = options.rateCap ?? GATEWAY_DEFAULTS.rateCap;
    this.#rateCap = rateCap === false ? undefined : new SessionRateCap(rateCap);
    for (const channel of options.channels) this.#channels.set(channelKey(channel.id, channel.accountId), channel);
    this.#dispatcher = new OutboxDispatcher({
      store: this.store,
      channelFor: (channel, accountId) => this.#channels.get(channelKey(channel, accountId)),
      events: this.events,
      acceptSubagentResult: (entry) => this.#acceptSubagentResult(entry),
      logger: this.#logger,
      now: this.#now,
      ...options.outbox,
    });
    this.#housekeeper =
      options.housekeeping === false
        ? undefined
        : new StoreHousekeeper({
            store: this.store,
            now: this.#now,
            logger: this.#logger,
            ...(options.housekeeping === undefined ? {} : { options: options.housekeeping }),
          });
    const slots = options.subagentSlots ?? new SubagentSlots();
    for (const agent of this.config.agents) {
      this.#agents.set(
        agent.id,
        prepareAgent(agent, options.agents?.[agent.id], {
          models: options.models,
          streamFn: options.streamFn,
          store: this.store,
          events: this.events,
          runs: this.runs,
          logger: this.#logger,
          now: this.#now,
          slots,
          loop: options.loop,
          onEnqueued: (entries) => this.#deliver(entries),
        }),
      );
    }
    this.#deps = {
      store: this.store,
      events: this.events,
      runs: this.runs,
      logger: this.#logger,
      now: this.#now,
      admission: this.#admission,
      streamFn: options.streamFn,
      loop: options.loop,
      resolveModel: (id) => options.models.find(id),
      channelFor: (channel, accountId) => this.#channels.get(channelKey(channel, accountId)),
      deliver: (entries) => this.#deliver(entries),
      notice: (sessionKey, chat, text) => this.#notice(sessionKey, chat, text),
      onIdle: (runtime) => this.#onIdle(runtime),
      track: (work) => this.#track(work),
      replyMode: options.replyMode ?? "preview",
      typingDelayMs: options.typingDelayMs ?? GATEWAY_DEFAULTS.typingDelayMs,
      turnTimeoutMs: options.turnTimeoutMs ?? GATEWAY_DEFAULTS.turnTimeoutMs,
      maxQueued: options.maxQueuedPerSession ?? GATEWAY_DEFAULTS.maxQueuedPerSession,
      collectDebounceMs: options.collectDebounceMs ?? GATEWAY_DEFAULTS.collectDebounceMs,
      approvals: this.approvals,
    };
    this.#commandHost = this.#makeCommandHost();
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
    let dropped = 0;
    for (const runtime of [...this.#sessions.values()]) {
      if (runtime.lane.busy || runtime.lane.queued > 0) continue;
      const timer = this.#evictions.get(runtime.key);
      if (timer !== undefined) clearTimeout(timer);
      this.#evictions.delete(runtime.key);
      runtime.dropAgent();
      this.#sessions.delete(runtime.key);
      dropped++;
    }
    return dropped;
  }

  /**
   * Recovers from a previous process (runs left running are marked interrupted and their chats told, their open
   * approval requests settled; outbox entries left in flight are requeued), starts every channel, then delivers the
   * outbox: what waited from before the restart first, then the restart's notices.
   */
  async start(): Promise<void> {
    const interrupted = await this.store.interruptRunningRuns("the gateway restarted");
    const repaired = new Set<string>();
    for (const run of interrupted) {
      if (repaired.has(run.sessionKey)) continue;
      repaired.add(run.sessionKey);
      await repairInterruptedTranscript(this.store, run.sessionKey, this.#now());
    }
    // Approval requests of interrupted runs: no process waits for their answers any more. Those never delivered are
    // withdrawn before the outbox starts; those delivered are changed in place below, without their buttons.
    const openRequests = await openApprovalRequests(this.store, interrupted);
    await withdrawUndeliveredRequests(this.store, openRequests);
    // In-flight entries are requeued before any notice below is claimed, so no notice is taken for a resend. Nothing
    // is sent before the channels have started: a platform channel cannot send before then.
    await this.#dispatcher.recover();
    for (const { entry, text } of openRequests) {
      if (entry.status === "sent") this.#replaceNotice(Promise.resolve(entry.id), text);
    }
    const auto = this.#options.onRestart === "resume";
    const resume: SessionRecord[] = [];
    const told: Promise<void>[] = [];
    for (const run of interrupted) {
      if (run.depth !== 0) continue;
      const session = await this.store.getSession(run.sessionKey);
      if (session === undefined || isSubagentKey(session.key)) continue;
      told.push(this.#tellAfterRestart(session, auto ? RESUME_NOTICE : RESTART_NOTICE));
      if (auto) resume.push(session);
    }
    // Messages that were still waiting for their turn (no run had taken them in) are told about too.
    for (const session of await this.store.listUnansweredSessions()) {
      if (repaired.has(session.key) || isSubagentKey(session.key)) continue;
      told.push(this.#tellAfterRestart(session, auto ? UNANSWERED_RESUME_NOTICE : UNANSWERED_NOTICE));
      if (auto) resume.push(session);
    }
    // Concurrent, so that the notices of one restart share their COMMITs.
    await Promise.all(told);
    this.#redeliverTimer = setInterval(() => {
      for (const agent of this.#agents.values()) void agent.subagents?.redeliver();
    }, this.#options.outbox?.pollMs ?? 1000);
    this.#redeliverTimer.unref?.();
    this.#housekeeper?.start();
    this.#accepting = true;
    for (const channel of this.#channels.values()) await channel.start((message) => this.handleInbound(message));
    await this.#dispatcher.start();
    for (const session of resume) await this.#resume(session);
  }

  /**
   * Tells a chat what a restart did to its messages, and marks them answered in the same write as the notice's outbox
   * entry: a later restart does not tell it again about the same messages.
   */
  async #tellAfterRestart(session: SessionRecord, text: string): Promise<void> {
    const payload = noticePayload(sessionChatOf(session), text);
    try {
      const { outbox } = await this.store.commitTurn({
        sessionKey: session.key,
        messages: [],
        outbox: [{ sessionKey: session.key, kind: "notice", payload }],
        claimOutbox: true,
        answersSeq: session.lastSeq,
      });
      this.#track(this.#dispatcher.deliver(outbox));
    } catch (error) {
      this.#logger.error({ sessionKey: session.key, error: describeError(error) }, "could not queue a notice");
    }
  }

  /**
   * Continues an interrupted run by itself (`onRestart: "resume"`): a stored note says what happened, and the
   * session's lane takes it like a message. It runs as a guest: nobody is asking, so no tier can be vouched for.
   */
  async #resume(session: SessionRecord): Promise<void> {
    const message = { role: "user" as const, content: RESUME_PROMPT, timestamp: this.#now() };
    const { firstSeq } = await this.store.appendMessages(session.key, [message]);
    this.#runtimeFor(session).accept({ message, seq: firstSeq, trust: "guest", source: "user" });
  }

  /**
   * Stops taking messages, lets running turns finish for up to `deadlineMs` (then stops them), and stops the
   * channels and the outbox. Contract: nothing in the outbox is lost (undelivered entries stay pending).
   */
  async stop(deadlineMs = 10_000): Promise<void> {
    this.#accepting = false;
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
    await this.idle();
    if (this.#redeliverTimer !== undefined) clearInterval(this.#redeliverTimer);
    await this.#housekeeper?.stop();
    // The outbox stops before the channels: a retry falling due while a channel shuts down (a Telegram long poll can
    // take seconds to end) would be refused by it and given up; unsent, it stays pending for the next start.
    await this.#dispatcher.stop();
    for (const channel of this.#channels.values()) await channel.stop();
    for (const timer of this.#evictions.values()) clearTimeout(timer);
    this.#evictions.clear();
    this.#sessions.clear();
  }

  /** Resolves when no turn runs, no delivery is under way and no background work (titles) is pending. */
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

  /** The channel sink: every inbound message enters here. Contract: never rejects; failures are logged. */
  async handleInbound(message: InboundMessage): Promise<void> {
    if (!this.#accepting) return;
    const work = this.#handleInbound(message).catch((error: unknown) => {
      this.#logger.error(
        { channel: message.channel, eventId: message.eventId, error: describeError(error) },
        "inbound failed",
      );
    });
    this.#track(work);
    await work;
  }

  async #handleInbound(message: InboundMessage): Promise<void> {
    const { channel, accountId } = message;
    // Dedupe: the event id is recorded as the message is acted on (with the user's message, in its transaction), so
    // an event whose handling never got that far — a crash, a failed write — is handled when the platform replays it.
    const event = { channel, accountId, eventId: message.eventId };
    const policy = this.#policyFor(message);
    const selfId = this.#options.selfIds?.[channelKey(channel, accountId)] ?? "";
    const botHops = this.#brake.observe(message, selfId);
    const scope: PairingScope = { channel, accountId };
    const senderId = message.sender.id;
    // Pairing only matters for DM senders the config does not already decide about.
    const lookUpPairing =
      message.chatType === "dm" &&
      policy.dmPolicy !== "disabled" &&
      !policy.admins.includes(senderId) &&
      !policy.allowFrom.includes(senderId);
    const paired = lookUpPairing ? await this.pairing.isApproved(scope, senderId) : false;
    const decision = decideInbound(message, { policy, selfId, botHops, paired });
    if (decision.action === "ignore") {
      if (decision.hint !== undefined && this.#hints.first(`${channel}/${accountId}/${message.chatId}`)) {
        this.#logger.info({ channel, accountId, chatId: message.chatId }, decision.hint);
      }
      return;
    }
    const route = routeInbound(this.config, message);
    if (decision.action === "pair") {
      if (await this.store.recordInboundEvent(event)) await this.#pairingReply(message, scope, route.sessionKey);
      return;
    }
    if (this.#rateCap !== undefined && !this.#rateCap.allow(route.sessionKey, this.#now())) {
      this.#logger.warn(
        { sessionKey: route.sessionKey, senderId: message.sender.id },
        "rate cap reached: message ignored",
      );
      return;
    }
    const command = parseCommand(message.text);
    const builtin = command !== undefined && isBuiltinCommand(command.name);
    const newSession = {
      key: route.sessionKey,
      agentId: route.agentId,
      channel,
      accountId,
      chatId: message.chatId,
    };
    // An agent turn's message is stored with its session and event id in one transaction, before anything else
    // happens to it.
    const userMessage = builtin ? undefined : inboundUserMessage(message);
    let stored: { session: SessionRecord; created: boolean; seq: number | undefined } | undefined;
    try {
      stored =
        userMessage === undefined
          ? (await this.store.recordInboundEvent(event))
            ? { ...(await this.store.ensureSession(newSession)), seq: undefined }
            : undefined
          : await this.store.storeInboundMessage({ event, session: newSession, message: userMessage });
    } catch (error) {
      // Nothing of it was kept (nor its event id: a redelivery is handled); the sender must not wait for an answer.
      if (isSessionStoreError(error)) {
        await tellMessageNotStored(this.#channels.get(channelKey(channel, accountId)), message, this.#logger);
      }
      throw error;
    }
    if (stored === undefined) return; // a replay
    const { session, created, seq } = stored;
    this.events.publish({
      type: "message_received",
      at: this.#now(),
      sessionKey: session.key,
      agentId: route.agentId,
      channel,
      accountId,
      chatId: message.chatId,
      messageId: message.messageId,
      senderId,
    });
    if (created) this.#makeTitle(session.key, message.text);

    if (command !== undefined && userMessage === undefined) {
      const isAdmin = policy.admins.includes(senderId);
      const outcome = await runBuiltinCommand(command.name, {
        message,
        sessionKey: session.key,
        agentId: route.agentId,
        isAdmin,
        scope,
        args: command.args,
        host: this.#commandHost,
      });
      if (outcome.kind === "refused") {
        this.#logger.warn(
          { command: command.name, senderId, channel, accountId, chatId: message.chatId },
          "command refused: not authorised",
        );
      }
      if (outcome.kind !== "unknown") await this.#answerCommand(message, session, outcome.text, outcome.ephemeral);
      return;
    }
    if (userMessage === undefined) return;

    this.#runtimeFor(session, policy).accept({
      message: userMessage,
      ...(seq === undefined ? {} : { seq }),
      trust: decision.trust,
      source: "user",
      senderId,
      ...(message.chatType === "group" ? { replyToMessageId: message.messageId } : {}),
    });
  }

  /** The channel account's policy, with the sender among its admins when the `isAdmin` option says so. */
  #policyFor(message: InboundMessage): ChannelPolicy {
    const policy = resolveChannelPolicy(this.config, message.channel, message.accountId);
    const senderId = message.sender.id;
    if (policy.admins.includes(senderId) || this.#options.isAdmin?.(message) !== true) return policy;
    return { ...policy, admins: [...policy.admins, senderId] };
  }

  /**
   * A command's answer: through the platform command's own reply path when it came as one (Discord application
   * command, Slack slash command), else through the outbox. An interaction the platform refuses (e.g. its window
   * passed) falls back to the outbox unless the answer was only for the sender and the chat is not private.
   */
  async #answerCommand(
    message: InboundMessage,
    session: SessionRecord,
    text: string,
    ephemeral: boolean,
  ): Promise<void> {
    const chat = replyChat(session, message);
    const channel = this.#channels.get(channelKey(message.channel, message.accountId));
    if (message.interaction === undefined || channel === undefined) {
      this.#notice(session.key, chat, text);
      return;
    }
    try {
      await answerInteraction(message.interaction, text, channel.capabilities, ephemeral);
    } catch (error) {
      const fallBack = !ephemeral || message.chatType === "dm";
      this.#logger.warn(
        { channel: message.channel, accountId: message.accountId, error: describeError(error), fallBack },
        "command interaction refused",
      );
      if (fallBack) this.#notice(session.key, chat, text);
    }
  }

  async #pairingReply(message: InboundMessage, scope: PairingScope, sessionKey: string): Promise<void> {
    const outcome = await this.pairing.request(scope, message.sender);
    const chat: SessionChat = {
      channel: message.channel,
      accountId: message.accountId,
      target: { chatType: "dm", chatId: message.chatId },
    };
    let text: string;
    switch (outcome.status) {
      case "created":
      case "pending":
        text = `Hi! I don't know you yet. Ask an admin of this bot to approve you with: /pair approve ${outcome.code} (the code expires in an hour).`;
        break;
      case "too-many-pending":
        text = "Too many people are waiting for approval right now; please try again later.";
        break;
      case "already-approved":
        return;
    }
    this.#logger.info(
      { channel: scope.channel, accountId: scope.accountId, senderId: message.sender.id },
      "pairing requested",
    );
    this.#notice(sessionKey, chat, text);
  }

  #runtimeFor(session: SessionRecord, policy?: ChannelPolicy): SessionRuntime {
    const eviction = this.#evictions.get(session.key);
    if (eviction !== undefined) {
      clearTimeout(eviction);
      this.#evictions.delete(session.key);
    }
    const existing = this.#sessions.get(session.key);
    if (existing !== undefined) return existing;
    const prepared = this.#agents.get(session.agentId);
    if (prepared === undefined) throw new Error(`no agent ${session.agentId} is configured (session ${session.key})`);
    const chat = sessionChatOf(session);
    const channelPolicy = policy ?? resolveChannelPolicy(this.config, session.channel, session.accountId);
    const mode = resolveQueueMode(channelPolicy, chat.target);
    const group = chat.target.chatType === "group" ? channelPolicy.groups[chat.target.chatId] : undefined;
    const runtime = new SessionRuntime(this.#deps, prepared, session, chat, mode, group?.toolPolicy);
    this.#sessions.set(session.key, runtime);
    return runtime;
  }

  #onIdle(runtime: SessionRuntime): void {
    const evict = (): void => {
      this.#evictions.delete(runtime.key);
      if (runtime.lane.busy || runtime.lane.queued > 0) return;
      runtime.dropAgent();
      if (this.#sessions.get(runtime.key) === runtime) this.#sessions.delete(runtime.key);
    };
    const after = this.#options.idleEvictMs ?? GATEWAY_DEFAULTS.idleEvictMs;
    if (after <= 0) {
      evict();
      return;
    }
    const previous = this.#evictions.get(runtime.key);
    if (previous !== undefined) clearTimeout(previous);
    const timer = setTimeout(evict, after);
    timer.unref?.();
    this.#evictions.set(runtime.key, timer);
  }

  async #acceptSubagentResult(entry: OutboxEntry): Promise<void> {
    const payload = asSubagentResultPayload(entry.payload);
    const session = await this.store.getSession(entry.sessionKey);
    if (payload === undefined || session === undefined) {
      // Kept (status failed) for inspection: there is no session to continue.
      await this.store.markOutboxFailed(entry.id, {
        error:
          payload === undefined ? "malformed sub-agent result" : `the session ${entry.sessionKey} no longer exists`,
      });
      return;
    }
    const message = subagentResultMessage(payload, this.#now());
    const seq = await this.store.transaction(async (tx) => {
      const appended = await tx.appendMessages(session.key, [message]);
      await tx.markOutboxSent(entry.id, []);
      return appended.firstSeq;
    });
    this.#runtimeFor(session).accept({ message, seq, trust: payload.trust, source: "subagent-result" });
  }

  #deliver(entries: readonly OutboxEntry[]): void {
    this.#track(this.#dispatcher.deliver(entries));
  }

  /** Queues a notice and delivers it. Contract: resolves with its outbox entry's id once queued; never rejects. */
  #notice(
    sessionKey: string,
    chat: SessionChat,
    text: string,
    options: NoticeOptions = {},
  ): Promise<number | undefined> {
    const { buttons, runId, ...extra } = options;
    const payload = { ...noticePayload(chat, text, buttons), ...extra };
    const entry = { sessionKey, kind: "notice" as const, payload, ...(runId === undefined ? {} : { runId }) };
    const queued = this.store.enqueueOutbox([entry]).then(
      (entries) => {
        this.#track(this.#dispatcher.deliver(entries));
        return entries[0]?.id;
      },
      (error: unknown) => {
        this.#logger.error({ sessionKey, error: describeError(error) }, "could not queue a notice");
        return undefined;
      },
    );
    this.#track(queued);
    return queued;
  }

  /**
   * Changes a delivered notice's text in place, without its buttons: a new notice that edits the messages the first
   * went out as. A notice not delivered (yet) is left alone — nothing on the platform to change.
   */
  #replaceNotice(posted: Promise<number | undefined>, text: string): void {
    const replaced = posted.then(async (id) => {
      const entry = id === undefined ? undefined : await this.store.getOutboxEntry(id);
      const payload = entry === undefined ? undefined : asChatPayload(entry.payload);
      if (entry?.status !== "sent" || payload === undefined || entry.platformMessageIds.length === 0) return;
      const chat = { channel: payload.channel, accountId: payload.accountId, target: payload.target };
      await this.#notice(entry.sessionKey, chat, text, {
        editMessageIds: entry.platformMessageIds,
        // When it went out (it was marked sent right after), for platforms' edit windows.
        editSentAt: entry.platformMessageIds.map(() => entry.updatedAt),
        editOnly: true,
        settles: entry.id,
      });
    });
    this.#track(
      replaced.catch((error: unknown) =>
        this.#logger.warn({ error: describeError(error) }, "could not settle a notice"),
      ),
    );
  }

  #makeTitle(sessionKey: string, text: string): void {
    const titles = this.#options.titles;
    if (titles === false) return;
    this.#track(
      generateSessionTitle(text, titles)
        .then((title) => this.store.updateSession(sessionKey, { title }))
        .catch((error: unknown) => this.#logger.warn({ sessionKey, error: describeError(error) }, "title failed")),
    );
  }

  #track(work: Promise<unknown>): void {
    this.#inflight.add(work);
    void work.finally(() => this.#inflight.delete(work)).catch(() => {});
  }

  // ── Commands ───────────────────────────────────────────────────────────────

  #makeCommandHost(): CommandHost {
    const host: CommandHost = {
      pairing: this.pairing,
      newSession: async (key) => {
        const runtime = this.#sessions.get(key);
        if (runtime !== undefined) {
          runtime.lane.clear();
          runtime.stop("user", "a new conversation was started");
          await runtime.settled();
          runtime.dropAgent();
        }
        await this.store.resetTranscript(key);
      },
      stopSession: async (key) => {
        const runtime = this.#sessions.get(key);
        if (runtime === undefined) return { stopped: false, dropped: 0 };
        const dropped = runtime.lane.clear().length;
        return { stopped: runtime.stop("user", "stopped by the user"), dropped };
      },
      compactSession: (key) => this.#compact(key),
      setQueueMode: async (key, mode) => {
        await this.store.updateSession(key, { queueModeOverride: mode });
        const runtime = this.#sessions.get(key);
        if (runtime !== undefined) runtime.lane.mode = mode;
      },
      currentModel: async (key) => (await this.#modelOf(key)).id,
      knownModels: () => this.#options.models.list().map((model) => model.id),
      switchModel: async (key, id): Promise<ModelSwitch> => {
        const model = this.#options.models.find(id);
        if (model === undefined) return { ok: false, known: host.knownModels() };
        await this.store.updateSession(key, { modelOverride: model.id });
        this.#sessions.get(key)?.setModel(model.id);
        return { ok: true, model: model.id };
      },
      status: (key) => this.#status(key),
      fleet: () => this.fleet(),
      agentInfo: async (agentId) => this.#agentInfo(agentId),
      agentSessions: async (agentId) => {
        if (!this.#agents.has(agentId)) return undefined;
        return (await this.store.listSessions({ agentId })).filter((s) => !isSubagentKey(s.key));
      },
      killRun: async (runId) => this.killRun(runId),
      answerApproval: (code, approve, by) => this.approvals.answer(code, approve, by),
    };
    return host;
  }

  /** The fleet as /agents shows it. */
  async fleet(): Promise<FleetView> {
    const runs = await this.store.listRuns({ status: "running" });
    const runSessions = new Map<string, SessionRecord>();
    for (const run of runs) {
      const session = await this.store.getSession(run.sessionKey);
      if (session !== undefined) runSessions.set(run.sessionKey, session);
    }
    const sessions = (await this.store.listSessions()).filter((s) => !isSubagentKey(s.key));
    return buildFleetView({
      agents: this.config.agents,
      bindings: this.config.bindings,
      sessions,
      runs,
      runSessions,
      live: this.runs,
      now: this.#now(),
    });
  }

  /**
   * Stops a run and every run below it; the affected chat is told. Contract: `killed` lists the stopped run ids,
   * the run itself first; empty when no such run is live in this process.
   */
  async killRun(runId: string): Promise<{ killed: string[] }> {
    const run = this.runs.get(runId);
    if (run === undefined) return { killed: [] };
    const killed = this.runs.killTree(runId, "stopped by an administrator");
    // A root run tells its chat itself (its end notice); for a sub-agent the root chat is told here.
    if (run.depth > 0) {
      const session = await this.store.getSession(rootKeyOf(run.sessionKey));
      if (session !== undefined) {
        this.#notice(
          session.key,
          sessionChatOf(session),
          `An administrator stopped a sub-agent task (${run.agentId}).`,
        );
      }
    }
    this.#logger.info({ runId, killed }, "runs killed by an administrator");
    return { killed };
  }

  async #modelOf(key: string): Promise<Model> {
    const runtime = this.#sessions.get(key);
    if (runtime !== undefined) return runtime.model;
    const session = await this.store.getSession(key);
    const prepared = session === undefined ? undefined : this.#agents.get(session.agentId);
    const override =
      session?.modelOverride === undefined ? undefined : this.#options.models.find(session.modelOverride);
    return override ?? prepared?.defaultModel ?? this.#agents.values().next().value!.defaultModel;
  }

  async #status(key: string): Promise<SessionStatus> {
    const session = await this.store.getSession(key);
    const runtime = session === undefined ? undefined : this.#runtimeFor(session);
    const transcript = runtime?.agent?.state.messages ?? (await this.store.readTranscript(key)).map((e) => e.message);
    const runs = await this.store.listRuns({ sessionKey: key });
    let cost = 0;
    for (const run of runs) cost += this.runs.get(run.id)?.usage().cost.total ?? run.usage.cost.total;
    const stored = session?.settings.lastCompaction as { before: number; after: number } | undefined;
    const lastCompaction = runtime?.lastCompaction ?? stored;
    const status: SessionStatus = {
      agentId: session?.agentId ?? "?",
      model: (await this.#modelOf(key)).id,
      contextTokens: estimateTokens(transcript),
      cost,
      queueMode: (runtime?.lane.mode ?? "steer") as QueueMode,
      queued: runtime?.lane.queued ?? 0,
      running: runtime?.currentRunId !== undefined,
    };
    if (runtime !== undefined && !runtime.lane.busy) this.#onIdle(runtime);
    return lastCompaction === undefined ? status : { ...status, lastCompaction };
  }

  async #compact(key: string): Promise<string> {
    const session = await this.store.getSession(key);
    if (session === undefined) return "Nothing to compact yet.";
    const runtime = this.#runtimeFor(session);
    if (runtime.lane.busy) return "I am working on something; try /compact when I am done.";
    // A lane item: a message arriving during the summary call waits for it instead of racing it.
    return runtime.lane.runExclusive(async () => {
      const agent = await runtime.loadAgent();
      const before = estimateTokens(agent.state.messages);
      const outcome = await summarizeOlderMessages({
        messages: agent.state.messages,
        keepRecentTokens: COMPACT_KEEP_RECENT_TOKENS,
        convert: defaultConvertToLlm,
        complete: (context) => this.#options.streamFn(runtime.model, context).result(),
        prompt: DEFAULT_SUMMARY_PROMPT,
      });
      if (!outcome.ok) return `Nothing was compacted (${outcome.error}).`;
      agent.replaceMessages(outcome.messages);
      const after = estimateTokens(outcome.messages);
      runtime.lastCompaction = { before, after };
      // Messages that arrived during the summary call are stored already; they stay after the fresh start.
      const waiting = runtime.lane.waitingItems().map((item) => item.message);
      await this.store.transaction(async (tx) => {
        await tx.resetTranscript(key);
        await tx.appendMessages(key, [...outcome.messages, ...waiting]);
        await tx.updateSession(key, { settings: { ...session.settings, lastCompaction: { before, after } } });
      });
      return `Compacted the conversation: ~${before} → ~${after} tokens.`;
    });
  }

  #agentInfo(agentId: string): string | undefined {
    const prepared = this.#agents.get(agentId);
    if (prepared === undefined) return undefined;
    const { config } = prepared;
    const bindings = this.config.bindings.filter((b) => b.agentId === agentId).length;
    const live = this.runs.all().filter((run) => run.agentId === agentId && run.depth === 0).length;
    const lines = [
      `**${config.id}** · model ${config.model} · ${bindings} binding(s) · ${live} running run(s)`,
      `Tools: ${prepared.tools.map((tool) => tool.name).join(", ") || "none"}`,
      `Sub-agents: depth ≤ ${config.subagents.maxSpawnDepth}, ≤ ${config.subagents.maxChildrenPerRun} per run, ≤ ${config.subagents.maxConcurrent} at once`,
    ];
    if (config.toolPolicy !== undefined) lines.push(`Tool policy: ${JSON.stringify(config.toolPolicy)}`);
    if (config.systemPrompt !== undefined) lines.push(`System prompt: ${config.systemPrompt.slice(0, 200)}`);
    return lines.join("\n");
  }
}

function channelKey(channel: string, accountId: string): string {
  return `${channel}/${accountId}`;
}

/** Replies to a command go to the chat (and thread) the command came from. */
function replyChat(session: SessionRecord, message: InboundMessage): SessionChat {
  const target =
    message.threadId === undefined
      ? { chatType: message.chatType, chatId: message.chatId }
      : { chatType: message.chatType, chatId: message.chatId, threadId: message.threadId };
  return { channel: session.channel, accountId: session.accountId, target };
}

/** What a notice carries besides its text: buttons, the run it belongs to, and payload fields for edits and restarts. */
type NoticeOptions = PostOptions & Pick<ChatDeliveryPayload, "editMessageIds" | "editSentAt" | "editOnly" | "settles">;

/** The outbox payload of a notice to a session's chat. */
function noticePayload(chat: SessionChat, text: string, buttons?: readonly OutboundButton[]): ChatDeliveryPayload {
  return {
    channel: chat.channel,
    accountId: chat.accountId,
    target: chat.target,
    text,
    ...(buttons === undefined ? {} : { buttons }),
  };
}
