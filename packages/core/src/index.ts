// @chorus/core — public API.
export type { ProviderErrorInfo, ProviderErrorKind } from "./errors/provider-error.js";
export type {
  AssistantContent,
  ImageContent,
  TextContent,
  ThinkingContent,
  ToolCall,
  UserContent,
} from "./messages/content.js";
export type {
  AgentMessage,
  AssistantMessage,
  CustomAgentMessages,
  Message,
  StopReason,
  ToolResultMessage,
  UserMessage,
} from "./messages/message-types.js";
export { addUsage, emptyUsage, type Usage, type UsageCost } from "./messages/usage.js";
export type { Model, ModelCapabilities, ModelPricing } from "./model/model.js";
export { type AssistantMessageEvent, AssistantMessageEventStream } from "./stream/assistant-message-event.js";
export { EventStream } from "./stream/event-stream.js";
export type { LlmTool, StreamContext, StreamFn, StreamOptions } from "./stream/stream-fn.js";
