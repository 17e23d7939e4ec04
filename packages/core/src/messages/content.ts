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
export type UserContent = TextContent | ImageContent;
