import type { ProviderErrorInfo } from "../errors/provider-error.js";
import type { AssistantContent, ImageContent, TextContent, UserContent } from "./content.js";
import type { Usage } from "./usage.js";

/** A message from the person (or the app on their behalf). */
export interface UserMessage {
  role: "user";
  content: string | UserContent[];
  timestamp: number;
}

/** Why the model stopped. `length` means the output limit cut it off. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

/** A model response: text, thinking and tool calls, with usage and why it stopped. */
export interface AssistantMessage {
  role: "assistant";
  content: AssistantContent[];
  /** The API that produced it (e.g. "anthropic-messages", "openai-chat"). */
  api: string;
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  /** Human-readable reason when stopReason is "error" or "aborted". */
  errorMessage?: string;
  /** Classified failure when stopReason is "error" or "aborted". */
  error?: ProviderErrorInfo;
  /** Provider's response id, when it gives one. */
  responseId?: string;
  timestamp: number;
}

/** The result of one tool call, sent back to the model. */
export interface ToolResultMessage<TDetails = unknown> {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  isError: boolean;
  /** Structured data for the app (UI, logs); never sent to the model. */
  details?: TDetails;
  /** Set when TACO replaced the output with a summary (seed 002's `TacoCompressed` part); never sent to the model. */
  compressed?: ToolOutputCompressionTag;
  timestamp: number;
}

/** What TACO did to a tool result, for the UI and the audit log. `raw` is the output the tool returned. */
export interface ToolOutputCompressionTag {
  by: "taco";
  /** Id of the model that wrote the summary. */
  model: string;
  rawTokens: number;
  compressedTokens: number;
  raw: (TextContent | ImageContent)[];
}

/** The messages a model understands. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Apps add their own message kinds by declaration merging:
 * `declare module "@chorus/core" { interface CustomAgentMessages { note: { role: "note"; text: string } } }`.
 * `convertToLlm` decides how (or whether) they reach the model.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

/** Everything an agent's transcript may hold: LLM messages plus app-defined ones. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];
