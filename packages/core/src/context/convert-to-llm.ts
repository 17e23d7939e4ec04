import type { AgentMessage, Message } from "../messages/message-types.js";

/**
 * The default `convertToLlm`: keeps user, assistant and toolResult messages, drops custom ones.
 * Contract: returns the input array itself when every message is already a model message.
 */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
  for (let i = 0; i < messages.length; i++) {
    if (!isLlmMessage(messages[i] as AgentMessage)) return messages.filter(isLlmMessage);
  }
  return messages as Message[];
}

function isLlmMessage(m: AgentMessage): m is Message {
  const role = (m as { role?: unknown }).role;
  return role === "user" || role === "assistant" || role === "toolResult";
}
