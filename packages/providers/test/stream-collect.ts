// Test-only: drain a StreamFn's event stream and keep every event.
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream } from "@chorus/core";

export async function collect(
  stream: AssistantMessageEventStream,
): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, message: await stream.result() };
}

export function clearLlmEnv(): void {
  for (const name of Object.keys(process.env)) {
    if (name.startsWith("ANTHROPIC_") || name.startsWith("OPENAI_")) delete process.env[name];
  }
}
