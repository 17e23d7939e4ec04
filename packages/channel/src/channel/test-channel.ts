import { AttachmentFetchError } from "./attachment-fetch-error.js";
import { ChannelError } from "./channel-error.js";
import type {
  AttachmentLocation,
  Channel,
  ChannelCapabilities,
  FetchAttachmentOptions,
  FetchedAttachment,
  InboundMessage,
  InboundSink,
  OutboundFile,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "./channel-types.js";

/** The operations a TestChannel records. */
export type TestChannelOperation = "send" | "edit" | "delete" | "typing" | "react" | "sendFile";

/** One recorded call; `error` is set when the call was made to fail. */
export type TestChannelCall =
  | { op: "send"; target: SendTarget; outbound: OutboundMessage; messageId?: string; error?: ChannelError }
  | { op: "edit"; messageId: string; outbound: OutboundMessage; error?: ChannelError }
  | { op: "delete"; messageId: string; error?: ChannelError }
  | { op: "typing"; target: SendTarget; error?: ChannelError }
  | { op: "react"; messageId: string; emoji: string; error?: ChannelError }
  | { op: "sendFile"; target: SendTarget; file: OutboundFile; messageId?: string; error?: ChannelError };

/** A message as it currently stands in the fake chat, after any edits. */
export interface TestChannelMessage {
  readonly messageId: string;
  readonly target: SendTarget;
  text: string;
  edits: number;
  deleted: boolean;
}

/** An inbound message to inject: only `text` is required, everything else gets a sensible default. */
export type InjectedMessage = Partial<Omit<InboundMessage, "sender">> & {
  text: string;
  sender?: Partial<InboundMessage["sender"]>;
};

/** Options of a TestChannel. */
export interface TestChannelOptions {
  id?: string;
  accountId?: string;
  capabilities?: Partial<ChannelCapabilities>;
  /** Clock for receivedAt / sentAt; defaults to Date.now (so fake timers apply). */
  now?: () => number;
  /**
   * Refuse edits of messages older than this with "edit-window-expired" (Discord: one hour). The age is judged by
   * the `sentAt` the caller passes, as an adapter must when the platform's message id carries no time.
   */
  editWindowMs?: number;
}

/** Generous defaults so tests only set what they are about. */
export const TEST_CHANNEL_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 4000,
  edit: true,
  delete: true,
  typing: true,
  threads: true,
  reactions: true,
  buttons: true,
  markup: "markdown",
  editRate: { edits: 5, perMs: 5000 },
  maxUploadBytes: 50 * 1024 * 1024,
};

interface PendingFailure {
  op: TestChannelOperation;
  make: () => ChannelError;
  remaining: number;
}

interface CallWaiter {
  op: TestChannelOperation | undefined;
  count: number;
  resolve: () => void;
}

/**
 * An in-memory Channel for tests: inject inbound messages, inspect every send/edit/delete/typing/react,
 * and make operations fail (e.g. rate limits) on demand.
 * Contract: behaves like a strict platform — it rejects text over `maxMessageLength` with ChannelError "too-long",
 * operations its capabilities lack with "forbidden", and edits of unknown messages with "not-found".
 */
export class TestChannel implements Channel {
  readonly id: string;
  readonly accountId: string;
  readonly capabilities: ChannelCapabilities;
  /** Every call in order, including the ones that were made to fail. */
  readonly calls: TestChannelCall[] = [];
  /** Messages in the fake chat by id, as they currently read. */
  readonly messages = new Map<string, TestChannelMessage>();
  /** Files people "sent", by attachment id, served by `fetchAttachment` (add with `addFile`). */
  readonly files = new Map<string, { bytes: Uint8Array; mimeType?: string }>();
  /** Every `fetchAttachment` call, in order (the attachment id). */
  readonly fetches: string[] = [];

  #sink: InboundSink | undefined;
  #nextOutbound = 1;
  #nextInbound = 1;
  #failures: PendingFailure[] = [];
  #waiters: CallWaiter[] = [];
  readonly #now: () => number;
  readonly #editWindowMs: number | undefined;

  constructor(options: TestChannelOptions = {}) {
    this.id = options.id ?? "test";
    this.accountId = options.accountId ?? "default";
    this.capabilities = { ...TEST_CHANNEL_CAPABILITIES, ...options.capabilities };
    this.#now = options.now ?? Date.now;
    this.#editWindowMs = options.editWindowMs;
  }

  /** Makes a file fetchable by its attachment id, as if a person had sent it. */
  addFile(id: string, bytes: Uint8Array, mimeType?: string): void {
    this.files.set(id, mimeType === undefined ? { bytes } : { bytes, mimeType });
  }

  /** Serves a file added with `addFile`. Contract: as `Channel.fetchAttachment` (`not-found`, `too-large`). */
  async fetchAttachment(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
    this.fetches.push(location.id);
    const file = this.files.get(location.id);
    if (file === undefined) throw new AttachmentFetchError("not-found", `no file ${location.id}`);
    if (file.bytes.byteLength > options.maxBytes) throw new AttachmentFetchError("too-large", "over the cap");
    return file.mimeType === undefined ? { bytes: file.bytes } : { bytes: file.bytes, mimeType: file.mimeType };
  }

  /** Records an upload as a message whose text is `[file name] caption`. Contract: as `Channel.sendFile`. */
  async sendFile(target: SendTarget, file: OutboundFile): Promise<SentMessage> {
    const limit = this.capabilities.maxUploadBytes;
    const tooBig =
      limit !== undefined && file.bytes.byteLength > limit ? new ChannelError("too-long", "file too large") : undefined;
    const error = this.#notStarted("sendFile") ?? this.#takeFailure("sendFile") ?? tooBig;
    if (error !== undefined) return this.#reject({ op: "sendFile", target, file, error });
    const messageId = `out-${this.#nextOutbound++}`;
    const text = `[file ${file.name}]${file.caption === undefined ? "" : ` ${file.caption}`}`;
    this.messages.set(messageId, { messageId, target, text, edits: 0, deleted: false });
    this.#record({ op: "sendFile", target, file, messageId });
    return { messageId, chatId: target.chatId, sentAt: this.#now() };
  }

  /** Whether `start` has been called and `stop` has not. */
  get started(): boolean {
    return this.#sink !== undefined;
  }

  async start(sink: InboundSink): Promise<void> {
    this.#sink = sink;
  }

  async stop(): Promise<void> {
    this.#sink = undefined;
  }

  /**
   * Delivers an inbound message to the started sink, filling in defaults, and waits for the sink to finish.
   * Contract: returns the full message delivered; throws if the channel is not started.
   */
  async inject(message: InjectedMessage): Promise<InboundMessage> {
    const sink = this.#sink;
    if (sink === undefined) throw new Error("TestChannel.inject: the channel is not started");
    const full = this.buildInbound(message);
    await sink(full);
    return full;
  }

  /** Builds a complete InboundMessage from a partial one, as `inject` would, without delivering it. */
  buildInbound(message: InjectedMessage): InboundMessage {
    const n = this.#nextInbound++;
    const sender = { id: "user-1", name: "User One", isBot: false, ...message.sender };
    const chatType = message.chatType ?? "dm";
    const messageId = message.messageId ?? `in-${n}`;
    return {
      channel: this.id,
      accountId: this.accountId,
      chatId: chatType === "dm" ? `dm-${sender.id}` : "group-1",
      mentionsBot: false,
      replyToBot: false,
      attachments: [],
      receivedAt: this.#now(),
      eventId: messageId,
      ...message,
      chatType,
      messageId,
      sender,
    };
  }

  /**
   * Makes the next `times` calls of `op` fail with the given error (default: a rate limit asking for 1 s).
   * Contract: failures queue up in the order they were requested, per operation.
   */
  failNext(op: TestChannelOperation, error?: ChannelError | (() => ChannelError), times = 1): void {
    const make =
      typeof error === "function"
        ? error
        : () => error ?? new ChannelError("rate-limited", "rate limited by the test channel", { retryAfterMs: 1000 });
    this.#failures.push({ op, make, remaining: times });
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    const error = this.#notStarted("send") ?? this.#takeFailure("send") ?? this.#checkLength(outbound);
    if (error !== undefined) return this.#reject({ op: "send", target, outbound, error });
    const messageId = `out-${this.#nextOutbound++}`;
    this.messages.set(messageId, { messageId, target, text: outbound.text, edits: 0, deleted: false });
    this.#record({ op: "send", target, outbound, messageId });
    const sent: SentMessage = { messageId, chatId: target.chatId, sentAt: this.#now() };
    return target.threadId === undefined ? sent : { ...sent, threadId: target.threadId };
  }

  async edit(message: SentMessage, outbound: OutboundMessage): Promise<void> {
    const { messageId } = message;
    const stored = this.messages.get(messageId);
    const error =
      this.#notStarted("edit") ??
      this.#unsupported("edit", this.capabilities.edit) ??
      this.#takeFailure("edit") ??
      (stored === undefined || stored.deleted ? notFound(messageId) : undefined) ??
      this.#checkEditWindow(message) ??
      this.#checkLength(outbound);
    if (error !== undefined) return this.#reject({ op: "edit", messageId, outbound, error });
    if (stored === undefined) return this.#reject({ op: "edit", messageId, outbound, error: notFound(messageId) });
    stored.text = outbound.text;
    stored.edits++;
    this.#record({ op: "edit", messageId, outbound });
  }

  async delete(message: SentMessage): Promise<void> {
    const { messageId } = message;
    const stored = this.messages.get(messageId);
    const error =
      this.#notStarted("delete") ??
      this.#unsupported("delete", this.capabilities.delete) ??
      this.#takeFailure("delete") ??
      (stored === undefined || stored.deleted ? notFound(messageId) : undefined);
    if (error !== undefined) return this.#reject({ op: "delete", messageId, error });
    if (stored === undefined) return this.#reject({ op: "delete", messageId, error: notFound(messageId) });
    stored.deleted = true;
    this.#record({ op: "delete", messageId });
  }

  async typing(target: SendTarget): Promise<void> {
    const error =
      this.#notStarted("typing") ??
      this.#unsupported("typing", this.capabilities.typing) ??
      this.#takeFailure("typing");
    if (error !== undefined) return this.#reject({ op: "typing", target, error });
    this.#record({ op: "typing", target });
  }

  async react(message: SentMessage, emoji: string): Promise<void> {
    const { messageId } = message;
    const error =
      this.#notStarted("react") ??
      this.#unsupported("react", this.capabilities.reactions) ??
      this.#takeFailure("react") ??
      (this.messages.has(messageId) ? undefined : notFound(messageId));
    if (error !== undefined) return this.#reject({ op: "react", messageId, emoji, error });
    this.#record({ op: "react", messageId, emoji });
  }

  /** The successful calls of one operation, in order. */
  succeeded<Op extends TestChannelOperation>(op: Op): Extract<TestChannelCall, { op: Op }>[] {
    return this.calls.filter((call): call is Extract<TestChannelCall, { op: Op }> => call.op === op && !call.error);
  }

  /** The current text of the non-deleted messages sent to a chat, oldest first. */
  transcript(chatId: string): string[] {
    return [...this.messages.values()]
      .filter((message) => message.target.chatId === chatId && !message.deleted)
      .map((message) => message.text);
  }

  /**
   * Resolves once at least `count` successful calls (of `op`, or of any operation) have been recorded.
   * Contract: resolves at once if they already have; never times out by itself (the test's timeout bounds it).
   */
  waitForCalls(count: number, op?: TestChannelOperation): Promise<void> {
    if (this.#countOk(op) >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ op, count, resolve }));
  }

  #countOk(op: TestChannelOperation | undefined): number {
    return this.calls.filter((call) => !call.error && (op === undefined || call.op === op)).length;
  }

  #record(call: TestChannelCall): void {
    this.calls.push(call);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.#countOk(waiter.op) < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }

  #checkEditWindow(message: SentMessage): ChannelError | undefined {
    if (this.#editWindowMs === undefined || this.#now() - message.sentAt <= this.#editWindowMs) return undefined;
    return new ChannelError("edit-window-expired", `message ${message.messageId} is too old to edit`);
  }

  #reject(call: TestChannelCall): Promise<never> {
    this.calls.push(call);
    return Promise.reject(call.error);
  }

  #takeFailure(op: TestChannelOperation): ChannelError | undefined {
    const failure = this.#failures.find((candidate) => candidate.op === op);
    if (failure === undefined) return undefined;
    failure.remaining--;
    if (failure.remaining <= 0) this.#failures.splice(this.#failures.indexOf(failure), 1);
    return failure.make();
  }

  /** As the platform channels do: nothing goes out before `start` or after `stop`. */
  #notStarted(op: TestChannelOperation): ChannelError | undefined {
    if (this.#sink !== undefined) return undefined;
    return new ChannelError("unknown", `test ${op}: the channel is not started`);
  }

  #unsupported(op: TestChannelOperation, supported: boolean): ChannelError | undefined {
    return supported ? undefined : new ChannelError("forbidden", `this test channel does not support ${op}`);
  }

  #checkLength(outbound: OutboundMessage): ChannelError | undefined {
    const limit = this.capabilities.maxMessageLength;
    if (outbound.text.length <= limit) return undefined;
    return new ChannelError("too-long", `message is ${outbound.text.length} characters; the limit is ${limit}`);
  }
}

function notFound(messageId: string): ChannelError {
  return new ChannelError("not-found", `no message ${messageId}`);
}
