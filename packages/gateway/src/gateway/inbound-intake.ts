import type { InboundMessage, OutboundButton } from "@chorus/channel";
import { MessageNotStoredError } from "@chorus/channel";
import type { InboundMessageStored, PairingScope, SessionRecord } from "@chorus/store";
import { isSessionStoreError } from "@chorus/store";
import { BUILTIN_COMMANDS, type CommandOutcome, runBuiltinCommand } from "../commands/builtin-commands.js";
import { commandFailureText } from "../commands/command-failure.js";
import type { CommandDefinition, CommandHost } from "../commands/command-types.js";
import { extensionCommandDefinition } from "../commands/extension-commands.js";
import { answerInteraction } from "../commands/interaction-reply.js";
import { parseCommand } from "../commands/parse-command.js";
import { answersUnknownCommand, unknownCommandAnswer } from "../commands/unknown-command.js";
import { type ChannelPolicy, resolveChannelPolicy } from "../config/resolve-channel-policy.js";
import { describeError } from "../logging/gateway-logger.js";
import { BotLoopBrake } from "../policy/bot-loop-brake.js";
import { decideInbound } from "../policy/decide-inbound.js";
import { OneTimeHints } from "../policy/one-time-hints.js";
import { routeInbound } from "../routing/route-inbound.js";
import { type InboundTrace, startInboundTrace } from "../telemetry/inbound-trace.js";
import { titleFromText } from "../titles/session-title.js";
import { channelKey, type GatewayContext } from "./gateway-context.js";
import { inboundUserMessage } from "./inbound-user-message.js";
import { tellMessageNotStored } from "./message-not-stored.js";
import type { SessionRateCap } from "./session-rate-cap.js";
import type { SessionChat } from "./session-runtime-deps.js";
import { DEFAULT_SETTLE_INBOUND_WRITE, settleInboundWrite } from "./settle-inbound-write.js";
import { takeUpStoredMessages } from "./take-up-stored-messages.js";
import { isUnreadableMessage, tellsUnreadable, UNREADABLE_MESSAGE_TEXT } from "./unreadable-message.js";

type EarlierUnanswered = NonNullable<InboundMessageStored["earlierUnanswered"]>;

/**
 * The inbound pipeline for one message: inbound policy (own/bot messages, bot hop limit, DM pairing/allowlist, group
 * allowlist, mention gating) → route (bindings) → per-session rate cap → builtin command, or the message is stored
 * with its event id (dedupe) and handed to its session's lane.
 * Contract: a user's message is in the store before its session sees it; a message the store refuses is answered
 * at once through the channel ("not stored") and the error rethrown.
 */
export class InboundIntake {
  readonly #ctx: GatewayContext;
  readonly #commandHost: CommandHost;
  readonly #rateCap: SessionRateCap | undefined;
  readonly #brake = new BotLoopBrake();
  readonly #hints = new OneTimeHints();
  /** The builtin commands, then the extensions'. */
  readonly #commands: readonly CommandDefinition[];

  constructor(ctx: GatewayContext, commandHost: CommandHost, rateCap: SessionRateCap | undefined) {
    this.#ctx = ctx;
    this.#commandHost = commandHost;
    this.#rateCap = rateCap;
    this.#commands = [...BUILTIN_COMMANDS, ...ctx.extensions.commands.map(extensionCommandDefinition)];
  }

  /**
   * Acts on one inbound message; `trace` records its verdicts (the Gateway starts it and ends its intake).
   * `draining` (a gateway shutting down): the message is stored as always but starts no turn here; it stays
   * unanswered for the instance that takes the session over once this one releases its leases, or for the next start
   * of a single gateway, so a message the platform delivered to a draining gateway is neither lost nor answered twice.
   */
  async handle(
    message: InboundMessage,
    trace: InboundTrace = startInboundTrace(message),
    draining = false,
  ): Promise<void> {
    const { channel, accountId } = message;
    // Dedupe: the event id is recorded as the message is acted on (with the user's message, in its transaction), so
    // an event whose handling never got that far — a crash, a failed write — is handled when the platform replays it.
    const event = { channel, accountId, eventId: message.eventId };
    const policy = this.#policyFor(message);
    const selfId = this.#ctx.options.selfIds?.[channelKey(channel, accountId)] ?? "";
    const botHops = this.#brake.observe(message, selfId);
    const scope: PairingScope = { channel, accountId };
    const senderId = message.sender.id;
    // Pairing only matters for DM senders the config does not already decide about.
    const lookUpPairing =
      message.chatType === "dm" &&
      policy.dmPolicy !== "disabled" &&
      !policy.admins.includes(senderId) &&
      !policy.allowFrom.includes(senderId);
    let paired = false;
    try {
      paired = lookUpPairing ? await this.#ctx.pairing.isApproved(scope, senderId) : false;
    } catch (error) {
      // The store is away before the message could be stored: the sender is told, as for a failed write below.
      throw await this.#notStored(error, message);
    }
    const decision = decideInbound(message, { policy, selfId, botHops, paired });
    trace.policy(
      decision.action === "ignore" ? `ignore:${decision.reason}` : decision.action,
      decision.action === "handle" ? decision.trust : undefined,
    );
    if (decision.action === "ignore") {
      trace.verdict("ignored");
      if (decision.hint !== undefined && this.#hints.first(`${channel}/${accountId}/${message.chatId}`)) {
        this.#ctx.logger.info({ channel, accountId, chatId: message.chatId }, decision.hint);
      }
      return;
    }
    const route = routeInbound(this.#ctx.config, message);
    trace.session(route.sessionKey, route.agentId);
    if (decision.action === "pair") {
      const fresh = await this.#ctx.store.recordInboundEvent(event);
      trace.dedupe(!fresh);
      trace.verdict(fresh ? "pairing" : "duplicate");
      if (fresh) await trace.within(() => this.#pairingReply(message, scope, route.sessionKey));
      return;
    }
    if (this.#rateCap !== undefined && !this.#rateCap.allow(route.sessionKey, this.#ctx.now())) {
      this.#ctx.logger.warn(
        { sessionKey: route.sessionKey, senderId: message.sender.id },
        "rate cap reached: message ignored",
      );
      trace.verdict("rate_capped");
      if (this.#rateCap.tellOnce(route.sessionKey)) {
        const seconds = Math.round(this.#rateCap.windowMs / 1000);
        this.#ctx.notices.post(
          route.sessionKey,
          replyChatOf(message),
          `You are sending messages faster than I can take them: I am skipping messages from this chat for up to ${seconds} seconds. Please wait a moment, then send again what you need answered.`,
        );
      }
      return;
    }
    const unreadable = isUnreadableMessage(message);
    if (unreadable && !tellsUnreadable(message)) {
      trace.verdict("unreadable");
      return;
    }
    const command = parseCommand(message.text);
    const builtin =
      command !== undefined &&
      (this.#commands.some((known) => known.name === command.name) ||
        this.#answersUnknown(command.name, route.agentId));
    // A title from the message's text is written with the session it names (no update of its own later); an
    // extension may write a better one later (@chorus/extension-titles).
    const titles = this.#ctx.options.titles;
    const newSession = {
      key: route.sessionKey,
      agentId: route.agentId,
      channel,
      accountId,
      chatId: message.chatId,
      ...(titles === false ? {} : { title: titleFromText(message.text) }),
    };
    // An agent turn's message is stored with its session and event id in one transaction, before anything else
    // happens to it.
    const userMessage = builtin || unreadable ? undefined : inboundUserMessage(message);
    let stored:
      | { session: SessionRecord; created: boolean; seq: number | undefined; earlierUnanswered?: EarlierUnanswered }
      | undefined;
    const input =
      userMessage === undefined
        ? undefined
        : {
            event,
            session: newSession,
            message: userMessage,
            memoryTier: decision.trust, // what long-term memory may later read of it
          };
    try {
      stored =
        input === undefined
          ? (await this.#ctx.store.recordInboundEvent(event))
            ? { ...(await this.#ctx.store.ensureSession(newSession)), seq: undefined }
            : undefined
          : await this.#ctx.store.storeInboundMessage(input);
    } catch (error) {
      // Where the platform will not deliver it again, whether the write applied is settled first (its answer may have
      // been lost): a stored message is answered, never refused.
      const settled =
        input === undefined || message.platformRedelivers === true
          ? undefined
          : await settleInboundWrite(this.#ctx.store, input, error, {
              ...DEFAULT_SETTLE_INBOUND_WRITE,
              withinMs: this.#ctx.options.inboundWriteRetryMs ?? DEFAULT_SETTLE_INBOUND_WRITE.withinMs,
              now: Date.now,
            });
      // Nothing of it was kept (nor its event id: a redelivery is handled); the sender must not wait for an answer.
      if (settled === undefined) throw await this.#notStored(error, message);
      stored = settled;
    }
    trace.dedupe(stored === undefined);
    if (stored === undefined) {
      trace.verdict("duplicate");
      return; // a replay
    }
    const { session, created, seq } = stored;
    this.#ctx.events.publish({
      type: "message_received",
      at: this.#ctx.now(),
      sessionKey: session.key,
      agentId: route.agentId,
      channel,
      accountId,
      chatId: message.chatId,
      messageId: message.messageId,
      senderId,
    });
    if (unreadable) {
      // Nothing a model could read: told here, never stored as an empty message that would fail every later turn.
      trace.verdict("unreadable");
      this.#ctx.notices.post(session.key, replyChat(session, message), UNREADABLE_MESSAGE_TEXT);
      return;
    }

    if (command !== undefined && userMessage === undefined) {
      trace.verdict("command");
      const isAdmin = policy.admins.includes(senderId);
      let outcome: CommandOutcome;
      try {
        outcome = await runBuiltinCommand(
          command.name,
          {
            message,
            sessionKey: session.key,
            agentId: route.agentId,
            isAdmin,
            trust: decision.trust,
            membersMay: message.chatType === "group" ? (policy.groups[message.chatId]?.membersMay ?? []) : [],
            scope,
            args: command.args,
            host: this.#commandHost,
            commands: this.#commands,
          },
          this.#commands,
        );
      } catch (error) {
        // Every command is answered: a throw becomes a sentence in the chat; its detail goes to the log only.
        this.#ctx.logger.error(
          { command: command.name, sessionKey: session.key, error: describeError(error) },
          "command failed",
        );
        outcome = { kind: "reply", text: commandFailureText(command.name, error), ephemeral: false };
      }
      if (outcome.kind === "unknown") {
        const commands = this.#commands
          .filter((known) => isAdmin || !known.adminOnly)
          .map((known) => known.name)
          .concat((this.#commandHost.agentCommands?.(route.agentId) ?? []).map((command) => command.name));
        outcome = { kind: "reply", text: unknownCommandAnswer(command.name, commands), ephemeral: true };
      }
      if (outcome.kind === "refused") {
        this.#ctx.logger.warn(
          { command: command.name, senderId, channel, accountId, chatId: message.chatId },
          "command refused: not authorised",
        );
      }
      const answer = outcome;
      const buttons = answer.kind === "reply" ? answer.buttons : undefined;
      // Not the command itself: a turn or goal it starts is not part of the command message's trace.
      await trace.within(() => this.#answerCommand(message, session, answer.text, answer.ephemeral, buttons));
      return;
    }
    if (userMessage === undefined) return;

    const replyTo = message.chatType === "group" ? { replyToMessageId: message.messageId } : {};
    // In a cluster, a session another instance owns is answered there: the message is stored; its owner is woken.
    const ownership = this.#ctx.store.ownership;
    if (ownership !== undefined && seq !== undefined && ownership.fenceFor(session.key) === undefined) {
      await ownership.handOff({ sessionKey: session.key, seq, trust: decision.trust, senderId, ...replyTo });
      trace.verdict("handed_off");
      return;
    }
    if (draining) {
      trace.verdict("handed_off");
      return;
    }
    trace.verdict("accepted");
    // A session this message created holds only this message: its runtime need not read the transcript.
    const createdBy =
      created && seq !== undefined ? { seq, epoch: ownership?.fenceFor(session.key)?.epoch } : undefined;
    const take = (): void =>
      this.#ctx.sessions.runtimeFor(session, policy, createdBy).accept({
        message: userMessage,
        ...(seq === undefined ? {} : { seq }),
        trust: decision.trust,
        source: "user",
        senderId,
        ...replyTo,
        trace,
      });
    const order = this.#ctx.intakeOrder;
    const earlier = stored.earlierUnanswered;
    if (ownership !== undefined && order !== undefined && seq !== undefined && earlier !== undefined) {
      // Older messages of the chat, stored by other instances, whose wake-ups have not come yet: taken up first (at
      // the guest tier, as the sweep does: their takers' word is in the wake-ups), this one after them.
      if (this.#ctx.sessions.get(session.key)?.hasTaken(earlier.lastInboundSeq) !== true) {
        order.begin(session.key);
        order.hold(session.key, seq, take);
        try {
          await takeUpStoredMessages(this.#ctx, ownership, { session, ...earlier });
        } catch (error) {
          this.#ctx.logger.error(
            { sessionKey: session.key, error: describeError(error) },
            "could not take up stored messages",
          );
        } finally {
          order.end(session.key);
        }
        return;
      }
    }
    // In a cluster, while this instance takes up the session's stored, unanswered messages (a takeover, a wake-up),
    // this one waits for them: each gets its own turn, in seq order.
    if (seq !== undefined && order?.hold(session.key, seq, take) === true) return;
    take();
  }

  /** Whether an unknown `/name` is answered here (closest command) rather than passed to the agent as text. */
  #answersUnknown(name: string, agentId: string): boolean {
    const agent = this.#ctx.config.agents.find((candidate) => candidate.id === agentId);
    return answersUnknownCommand(
      name,
      agent?.unknownCommands ?? "answer",
      this.#commandHost.agentCommands?.(agentId) ?? [],
    );
  }

  /** The channel account's policy, with the sender among its admins when the `isAdmin` option says so. */
  #policyFor(message: InboundMessage): ChannelPolicy {
    const policy = resolveChannelPolicy(this.#ctx.config, message.channel, message.accountId);
    const senderId = message.sender.id;
    if (policy.admins.includes(senderId) || this.#ctx.options.isAdmin?.(message) !== true) return policy;
    return { ...policy, admins: [...policy.admins, senderId] };
  }

  /**
   * A command's answer: through the platform command's own reply path when it came as one (Discord application
   * command, Slack slash command), else through the outbox. An interaction the platform refuses (e.g. its window
   * passed) falls back to the outbox unless the answer was only for the sender and the chat is not private. Buttons
   * go under an answer sent through the outbox (a platform command's reply path carries text only).
   */
  async #answerCommand(
    message: InboundMessage,
    session: SessionRecord,
    text: string,
    ephemeral: boolean,
    buttons?: readonly OutboundButton[],
  ): Promise<void> {
    const chat = replyChat(session, message);
    const channel = this.#ctx.channelFor(message.channel, message.accountId);
    if (message.interaction === undefined || channel === undefined) {
      this.#ctx.notices.post(session.key, chat, text, buttons === undefined ? {} : { buttons });
      return;
    }
    try {
      await answerInteraction(message.interaction, text, channel.capabilities, ephemeral);
    } catch (error) {
      const fallBack = !ephemeral || message.chatType === "dm";
      this.#ctx.logger.warn(
        { channel: message.channel, accountId: message.accountId, error: describeError(error), fallBack },
        "command interaction refused",
      );
      if (fallBack) this.#ctx.notices.post(session.key, chat, text);
    }
  }

  /**
   * A store failure means the message was not taken: a platform that redelivers what is not acknowledged is asked to
   * (the error returned is a `MessageNotStoredError`); elsewhere its sender hears so at once. Contract: returns the
   * error to throw.
   */
  async #notStored(error: unknown, message: InboundMessage): Promise<unknown> {
    if (!isSessionStoreError(error)) return error;
    if (message.platformRedelivers === true) return new MessageNotStoredError(error);
    await tellMessageNotStored(this.#ctx.channelFor(message.channel, message.accountId), message, this.#ctx.logger);
    return error;
  }

  async #pairingReply(message: InboundMessage, scope: PairingScope, sessionKey: string): Promise<void> {
    const outcome = await this.#ctx.pairing.request(scope, message.sender);
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
    this.#ctx.logger.info(
      { channel: scope.channel, accountId: scope.accountId, senderId: message.sender.id },
      "pairing requested",
    );
    this.#ctx.notices.post(sessionKey, chat, text);
  }
}

/** Replies to a command go to the chat (and thread) the command came from. */
function replyChat(session: SessionRecord, message: InboundMessage): SessionChat {
  return { ...replyChatOf(message), channel: session.channel, accountId: session.accountId };
}

/** The chat (and thread) a message came from. */
function replyChatOf(message: InboundMessage): SessionChat {
  const target =
    message.threadId === undefined
      ? { chatType: message.chatType, chatId: message.chatId }
      : { chatType: message.chatType, chatId: message.chatId, threadId: message.threadId };
  return { channel: message.channel, accountId: message.accountId, target };
}
