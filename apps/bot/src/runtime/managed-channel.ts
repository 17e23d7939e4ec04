import {
  type Channel,
  type ChannelStartContext,
  type InboundMessage,
  type InboundSink,
  MessageNotStoredError,
  type OutboundMessage,
  type SendTarget,
  type SentMessage,
} from "@chorus/gateway";

/**
 * A channel that outlives the Gateway it is handed to, so a config reload can swap the Gateway without
 * disconnecting channels that did not change. The platform connection starts on the first `start` and ends only
 * on `close`; the Gateway's own `stop` just detaches it. While detached, inbound messages wait (in order) for the
 * next Gateway instead of being dropped.
 * Contract: messages held while detached are handed to the next sink in arrival order; `close` refuses the ones whose
 * platform delivers them again (`MessageNotStoredError`: the webhook answers 5xx, so another instance or the next
 * start gets them) and lets the others go (their platform acked them already, or offers no second delivery).
 */
export class ManagedChannel implements Channel {
  readonly inner: Channel;
  readonly edit?: NonNullable<Channel["edit"]>;
  readonly delete?: NonNullable<Channel["delete"]>;
  readonly typing?: NonNullable<Channel["typing"]>;
  readonly react?: NonNullable<Channel["react"]>;
  readonly stopTyping?: NonNullable<Channel["stopTyping"]>;
  readonly fetchAttachment?: NonNullable<Channel["fetchAttachment"]>;
  readonly sendFile?: NonNullable<Channel["sendFile"]>;
  #sink: InboundSink | undefined;
  #started = false;
  #closing = false;
  #held: { message: InboundMessage; done: () => void; refuse: (error: Error) => void }[] = [];

  constructor(inner: Channel) {
    this.inner = inner;
    if (inner.edit) this.edit = (message, outbound) => inner.edit!(message, outbound);
    if (inner.delete) this.delete = (message) => inner.delete!(message);
    if (inner.typing) this.typing = (target) => inner.typing!(target);
    if (inner.react) this.react = (message, emoji) => inner.react!(message, emoji);
    if (inner.stopTyping) this.stopTyping = (target) => inner.stopTyping!(target);
    if (inner.fetchAttachment) this.fetchAttachment = (location, options) => inner.fetchAttachment!(location, options);
    if (inner.sendFile) this.sendFile = (target, file) => inner.sendFile!(target, file);
  }

  get id(): string {
    return this.inner.id;
  }

  get accountId(): string {
    return this.inner.accountId;
  }

  get capabilities(): Channel["capabilities"] {
    return this.inner.capabilities;
  }

  /** Whether the platform connection is up. */
  get opened(): boolean {
    return this.#started;
  }

  /**
   * Starts the platform connection (with `context`, the ingress leases, for the channel's whole life); messages are
   * held until a Gateway attaches. Rejects as the channel's start does.
   */
  async open(context?: ChannelStartContext): Promise<void> {
    if (this.#started) return;
    await this.inner.start((message) => this.#deliver(message), context);
    this.#started = true;
  }

  /** Attaches a Gateway's sink (opening the connection if needed) and hands it the messages held meanwhile. */
  async start(sink: InboundSink, context?: ChannelStartContext): Promise<void> {
    this.#sink = sink;
    await this.open(context);
    const held = this.#held;
    this.#held = [];
    for (const { message, done } of held) {
      await Promise.resolve(sink(message)).finally(done);
    }
  }

  /** Detaches the current Gateway; the connection stays up and new messages are held. */
  async stop(): Promise<void> {
    this.#sink = undefined;
  }

  /**
   * The bot is shutting down (no Gateway will attach again): from now on a message that arrives detached and whose
   * platform delivers it again is refused at once instead of held until `close`.
   */
  closing(): void {
    this.#closing = true;
  }

  /** Ends the platform connection (the channel was removed from the config, or the bot is shutting down). */
  async close(): Promise<void> {
    this.#sink = undefined;
    const held = this.#held;
    this.#held = [];
    for (const { message, done, refuse } of held) {
      // Acked now, it would be lost: no Gateway stores it any more.
      if (message.platformRedelivers === true) refuse(shuttingDown());
      else done();
    }
    if (this.#started) {
      this.#started = false;
      await this.inner.stop();
    }
  }

  send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    return this.inner.send(target, outbound);
  }

  #deliver(message: InboundMessage): Promise<void> {
    const sink = this.#sink;
    if (sink !== undefined) return Promise.resolve(sink(message));
    if (this.#closing && message.platformRedelivers === true) return Promise.reject(shuttingDown());
    // Held until the next Gateway attaches; the platform sees the delivery finish then (keeps per-chat order).
    return new Promise<void>((resolve, reject) => this.#held.push({ message, done: resolve, refuse: reject }));
  }
}

/** The refusal of a message no Gateway will store: its platform is asked to deliver it again (elsewhere, or later). */
function shuttingDown(): MessageNotStoredError {
  return new MessageNotStoredError(new Error("the bot is shutting down"));
}
