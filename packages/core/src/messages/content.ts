/** Plain text produced by the user, the model or a tool. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image, base64-encoded, with its MIME type (e.g. "image/png"). */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/**
 * A document the model reads itself (a PDF), base64-encoded. Providers that take documents send it as one (Anthropic
 * `document`, OpenAI `file`); a caller gives it only to a model whose `capabilities.documents` is true.
 */
export interface DocumentContent {
  type: "document";
  data: string;
  mimeType: string;
  /** The file's name, shown to the model where the provider takes one. */
  name?: string;
}

/** Where an attachment's bytes are kept: opaque to core, read by whoever resolves attachments (the gateway's media). */
export interface AttachmentSource {
  /** The channel kind and account that received it, e.g. "telegram" / "default". */
  channel: string;
  accountId: string;
  /** The platform's file id. */
  id: string;
  /** A download link, where the platform gives one (it may expire: Discord). */
  url?: string;
  /** The chat and message that carried it (to renew an expired link). */
  chatId: string;
  messageId: string;
  /** The same file's id across time, where the platform has one (Telegram `file_unique_id`). */
  uniqueId?: string;
}

/**
 * A file a person sent, kept in the transcript as a reference, never its bytes. Contract: before a model call a
 * resolver (a stream function wrapper) replaces it with what the model can read (image, document or text); a provider
 * that meets one still unresolved sends `describeAttachment`'s line instead.
 */
export interface AttachmentContent {
  type: "attachment";
  name: string;
  /** The MIME type the platform declared (a hint: resolvers sniff the bytes). */
  mimeType?: string;
  sizeBytes?: number;
  /** What the platform says it is: image, sticker, voice, audio, video, document. */
  kind?: string;
  source: AttachmentSource;
}

/**
 * Model reasoning. Contract: `signature` (and `redacted` data) is opaque and is
 * forwarded verbatim to the next request of the same provider; never edit it.
 */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  /** Provider signature or encrypted reasoning payload, replayed verbatim. */
  signature?: string;
  /** True when the provider redacted the reasoning; `signature` then holds the opaque data. */
  redacted?: boolean;
}

/** A tool call issued by the model. `arguments` is the parsed JSON object. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /**
   * Set when the call's arguments were cut off (a `length` stop) or were not valid JSON;
   * the loop never executes such a call.
   */
  incomplete?: boolean;
}

export type AssistantContent = TextContent | ThinkingContent | ToolCall;
export type UserContent = TextContent | ImageContent | DocumentContent | AttachmentContent;
