// Test-only: one scripted two-tool conversation, the tools it calls, and a transcript view
// without the parts that legitimately differ between providers (ids, timestamps, api names, prices).
import { type AgentMessage, defineTool } from "@chorus/core";
import type { FakeLlmScript } from "@chorus/testkit";
import { z } from "zod";

export const twoToolScripts: FakeLlmScript[] = [
  [
    { type: "text", text: "Let me check both." },
    { type: "tool_call", name: "get_weather", args: { city: "Paris" } },
    { type: "tool_call", name: "get_time", args: { zone: "Europe/Paris" } },
    { type: "usage", input: 120, output: 40 },
  ],
  [
    { type: "text", text: "In Paris it is sunny and 12:00." },
    { type: "usage", input: 200, output: 12 },
  ],
];

export const twoTools = [
  defineTool({
    name: "get_weather",
    description: "Current weather in a city",
    parameters: z.object({ city: z.string() }),
    category: "info",
    concurrencySafe: true,
    execute: ({ city }) => ({ content: [{ type: "text", text: `${city}: sunny` }] }),
  }),
  defineTool({
    name: "get_time",
    description: "Current time in a zone",
    parameters: z.object({ zone: z.string() }),
    category: "info",
    concurrencySafe: true,
    execute: ({ zone }) => ({ content: [{ type: "text", text: `${zone}: 12:00` }] }),
  }),
];

/** The transcript as a user would read it: roles, content, results and stop reasons. */
export function comparableTranscript(messages: AgentMessage[]): unknown[] {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `call#${ids.size + 1}`);
    return ids.get(id);
  };
  return messages.map((message) => {
    if (!("role" in message)) return message;
    switch (message.role) {
      case "user":
        return { role: "user", content: message.content };
      case "toolResult":
        return {
          role: "toolResult",
          toolCallId: idOf(message.toolCallId),
          toolName: message.toolName,
          content: message.content,
          isError: message.isError,
        };
      case "assistant":
        return {
          role: "assistant",
          stopReason: message.stopReason,
          tokens: [message.usage.input, message.usage.output, message.usage.cacheRead],
          content: message.content.map((block) =>
            block.type === "toolCall" ? { ...block, id: idOf(block.id) } : block,
          ),
        };
      default:
        return message;
    }
  });
}
