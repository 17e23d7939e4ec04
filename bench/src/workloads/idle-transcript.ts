import type { AssistantMessage, Message } from "@chorus/core";

const ZERO_USAGE = () => ({
  input: 120,
  output: 40,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 160,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

function assistant(content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"]): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "bench",
    provider: "bench",
    model: "bench-scripted",
    usage: ZERO_USAGE(),
    stopReason,
    timestamp: Date.now(),
  };
}

/**
 * A realistic transcript of `length` messages — cycles of question, tool call, tool result
 * and answer, with a few hundred characters each. `seed` makes every string distinct, so
 * two transcripts share no strings and each agent's heap is its own.
 */
export function buildTranscript(length: number, seed: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; messages.length < length; i++) {
    const tag = `${seed}.${i}`;
    const cycle: Message[] = [
      { role: "user", content: `Question ${tag}: please check the build log and summarise any failure.`, timestamp: 0 },
      assistant(
        [
          { type: "text", text: `Let me read the log for ${tag}.` },
          { type: "toolCall", id: `call_${tag}`, name: "read_file", arguments: { path: `/var/log/build-${tag}.log` } },
        ],
        "toolUse",
      ),
      {
        role: "toolResult",
        toolCallId: `call_${tag}`,
        toolName: "read_file",
        content: [{ type: "text", text: `[${tag}] ${"compiling module; ".repeat(12)}done in 4.2 s` }],
        isError: false,
        timestamp: 0,
      },
      assistant(
        [{ type: "text", text: `Build ${tag} passed: ${"all steps succeeded, ".repeat(6)}nothing to fix.` }],
        "stop",
      ),
    ];
    messages.push(...cycle.slice(0, length - messages.length));
  }
  return messages;
}
