import type { StopReason } from "../messages/message-types.js";

/** Attribute names of the OpenTelemetry GenAI semantic conventions (`gen_ai_latest_experimental`) that Chorus sets. */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  requestMaxTokens: "gen_ai.request.max_tokens",
  requestTemperature: "gen_ai.request.temperature",
  responseModel: "gen_ai.response.model",
  responseId: "gen_ai.response.id",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  cacheCreationTokens: "gen_ai.usage.cache_creation.input_tokens",
  tokenType: "gen_ai.token.type",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
  errorType: "error.type",
} as const;

/** Chorus' own attributes on the GenAI spans. */
export const CHORUS = {
  runId: "chorus.run.id",
  runDepth: "chorus.run.depth",
  endReason: "chorus.agent.end_reason",
  costUsd: "chorus.usage.cost_usd",
  toolOutcome: "chorus.tool.outcome",
  attempt: "chorus.model.attempt",
} as const;

/** A stop reason as a GenAI finish reason. */
export function finishReason(reason: StopReason): string {
  switch (reason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "toolUse":
      return "tool_call";
    case "error":
      return "error";
    case "aborted":
      return "cancelled";
  }
}
