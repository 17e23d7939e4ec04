import type { IngressLeases } from "./ingress-leases.js";

/** The text dialect a platform renders. The reply layer converts the agent's Markdown into it. */
export type MarkupDialect = "discord-md" | "slack-mrkdwn" | "telegram-html" | "markdown" | "plain";

/** How often one message may be edited: at most `edits` edits per `perMs` milliseconds. */
export interface EditRate {
  readonly edits: number;
  readonly perMs: number;
}

/** What a platform (account) can do. Lengths are measured in UTF-16 code units, the strictest common measure. */
export interface ChannelCapabilities {
  readonly maxMessageLength: number;
  /** Some platforms collapse long messages (Discord: 17 lines); the chunker keeps under this when set. */
  readonly maxLines?: number;
  readonly edit: boolean;
  readonly delete: boolean;
  readonly typing: boolean;
  readonly threads: boolean;
  readonly reactions: boolean;
  readonly buttons: boolean;
  readonly markup: MarkupDialect;
  readonly editRate: EditRate;
  /** The largest file `sendFile` uploads, in bytes; absent where the channel sends no files. */
  readonly maxUploadBytes?: number;
}

/** What a platform says an attachment is (the bytes decide in the end: MIME types are sniffed before use). */
export type AttachmentKind = "image" | "sticker" | "voice" | "audio" | "video" | "document";

/**
 * A file or media item attached to an inbound message: where the platform keeps it, never its bytes.
 * Contract: `id` is the platform's file id (Telegram `file_id`, Slack file id, Discord attachment id); `url` is where
 * the channel downloads it (Slack `url_private`, Discord's CDN link, which expires), absent where an id is enough.
 */
export interface InboundAttachment {
  readonly id: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly sizeBytes?: number;
  readonly url?: string;
  readonly kind?: AttachmentKind;
  /** The same file's id across time and bots, where the platform has one (Telegram `file_unique_id`). */
  readonly uniqueId?: string;
}

/** Where a stored attachment is fetched from again: its inbound fields and the message that carried it. */
export interface AttachmentLocation {
  readonly id: string;
  readonly url?: string;
  readonly chatId: string;
  readonly messageId: string;
}

/** How `Channel.fetchAttachment` downloads. */
export interface FetchAttachmentOptions {
  /** Reject with AttachmentFetchError `too-large` before more than this many bytes were read. */
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

/** The bytes of an attachment as the platform served them. */
export interface FetchedAttachment {
  readonly bytes: Uint8Array;
  /** What the platform's response said (a hint only: callers sniff the bytes). */
  readonly mimeType?: string;
  /** A fresh download link when the stored one had expired and was renewed (Discord). */
  readonly refreshedUrl?: string;
}

/** A file to upload to a chat. */
export interface OutboundFile {
  readonly bytes: Uint8Array;
  readonly name: string;
  /** Sniffed from the bytes by the caller. */
  readonly mimeType: string;
  /** Show it as a photo (inline image) where the platform tells photos from documents; else it goes as a document. */
  readonly asPhoto: boolean;
  /** Plain text under the file. */
  readonly caption?: string;
  /** As `OutboundMessage.idempotencyKey`: a platform that can refuse a repeat upload uses it (Discord's nonce). */
  readonly idempotencyKey?: string;
}

/** Who sent an inbound message. */
export interface InboundSender {
  readonly id: string;
  readonly name: string;
  readonly isBot: boolean;
}

/** One inbound chat message, normalised from any platform. */
export interface InboundMessage {
  /** The channel kind, e.g. "discord"; equals the receiving Channel's `id`. */
  readonly channel: string;
  readonly accountId: string;
  readonly chatType: "dm" | "group";
  /** The DM conversation or the group/channel id on the platform. */
  readonly chatId: string;
  /** A thread or forum topic inside `chatId`, when there is one. */
  readonly threadId?: string;
  /** Discord guild or Slack team the chat belongs to; absent where the platform has none. Used by bindings. */
  readonly guildId?: string;
  readonly messageId: string;
  /** The platform's delivery id, used to drop redelivered events; equal to messageId where there is no other. */
  readonly eventId: string;
  readonly sender: InboundSender;
  readonly text: string;
  readonly mentionsBot: boolean;
  readonly replyToBot: boolean;
  readonly attachments: readonly InboundAttachment[];
  /** Epoch milliseconds at which the gateway received the message. */
  readonly receivedAt: number;
  /**
   * Set when the message came from a platform command (Discord application command, Slack slash command) that
   * must be answered through the platform's own reply path, optionally visible only to the sender.
   * The gateway should answer such a message through `interaction.respond` rather than `Channel.send`.
   */
  readonly interaction?: InboundInteraction;
  /**
   * The platform sends this event again unless it is acknowledged (a Telegram webhook answered 5xx, a Slack HTTP
   * event answered non-2xx). A message that cannot be stored is then refused — the sink rejects with
   * `MessageNotStoredError` and the channel answers with the platform's retry signal — instead of telling the sender.
   */
  readonly platformRedelivers?: boolean;
}

/** Options of an interaction answer. */
export interface InteractionResponseOptions {
  /** Show the answer only to the person who ran the command. */
  readonly ephemeral: boolean;
}

/**
 * The platform's reply path for one command invocation.
 * Contract: `respond` may be called several times (the first answers the command, later ones follow up); it
 * rejects with a ChannelError when the platform refuses, e.g. once the command's response window has passed.
 */
export interface InboundInteraction {
  respond(text: string, options: InteractionResponseOptions): Promise<void>;
}

/** Where to send: a DM or group chat, optionally a thread in it. */
export interface SendTarget {
  readonly chatType: "dm" | "group";
  readonly chatId: string;
  readonly threadId?: string;
  /** Show the message as a reply to this message, where the platform supports it. */
  readonly replyToMessageId?: string;
}

/**
 * A button under a message, where the platform supports buttons.
 * Contract: a press reaches the sink as an InboundMessage from the person who pressed it, whose `text` is the
 * button's `id` (the gateway's buttons carry commands, e.g. "/approve k3x9q2").
 */
export interface OutboundButton {
  readonly id: string;
  readonly label: string;
}

/** A message to send or an edit to apply. `text` is already in the channel's markup dialect and within its limits. */
export interface OutboundMessage {
  readonly text: string;
  /** Buttons under the message; an edit shows exactly these, so an edit without any removes earlier ones. */
  readonly buttons?: readonly OutboundButton[];
  /**
   * Stable per message the gateway means to send once (the outbox sets `outbox:<id>:<chunk>`). A platform that can
   * refuse a repeat uses it (Discord: `nonce` + `enforce_nonce`); the others ignore it. Sends only, not edits.
   */
  readonly idempotencyKey?: string;
}

/** A message the channel has sent; kept so the reply layer can edit, react to, or delete it later. */
export interface SentMessage {
  readonly messageId: string;
  readonly chatId: string;
  readonly threadId?: string;
  /** Epoch milliseconds. */
  readonly sentAt: number;
}

/** Receives normalised inbound messages from a started channel. */
export type InboundSink = (message: InboundMessage) => void | Promise<void>;

/** What the gateway gives a channel at start besides the sink. */
export interface ChannelStartContext {
  /**
   * Asks "may I run this inbound consumer here?" for consumers a platform allows once per account (Telegram's
   * `getUpdates`, a Discord shard): in a cluster one instance holds each; alone, this one holds all at once.
   */
  readonly ingress: IngressLeases;
}

/**
 * One platform account the gateway talks through (seed 002's Channel trait).
 * Contract: `start` delivers every inbound message to `sink` until `stop` resolves; `send` resolves with the
 * platform's id for the message or rejects with a ChannelError; callers consult `capabilities` before using an
 * optional operation (an implementation may leave it out, or reject with ChannelError "forbidden").
 */
export interface Channel {
  readonly id: string;
  readonly accountId: string;
  readonly capabilities: ChannelCapabilities;
  /** `context` is given by the gateway; a channel started without one holds every ingress unit (`localIngress`). */
  start(sink: InboundSink, context?: ChannelStartContext): Promise<void>;
  stop(): Promise<void>;
  send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage>;
  edit?(message: SentMessage, outbound: OutboundMessage): Promise<void>;
  delete?(message: SentMessage): Promise<void>;
  typing?(target: SendTarget): Promise<void>;
  /**
   * Ends a typing indication that does not expire by itself (Slack's working reaction). Contract: a no-op when none
   * is shown; the next `send` to the conversation ends it too.
   */
  stopTyping?(target: SendTarget): Promise<void>;
  react?(message: SentMessage, emoji: string): Promise<void>;
  /**
   * Downloads an attachment of an inbound message with the bot's own credentials, from the platform's own hosts only
   * (its configured API root counts as one). Contract: rejects with AttachmentFetchError (`too-large` before reading
   * past `maxBytes`; `expired` when a link cannot be renewed; `host-not-allowed` for any other host).
   */
  fetchAttachment?(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment>;
  /**
   * Uploads a file to the chat through the platform's own upload (a photo or a document), with its caption.
   * Contract: resolves with the message that carries it; rejects with ChannelError (`too-long` when over
   * `capabilities.maxUploadBytes`).
   */
  sendFile?(target: SendTarget, file: OutboundFile): Promise<SentMessage>;
}
