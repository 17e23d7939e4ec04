import { describe, expect, it } from "vitest";
import { type AgentMessage, estimateMessageTokens, estimateTokens } from "../src/index.js";

function user(text: string): AgentMessage {
  return { role: "user", content: text, timestamp: 0 } as AgentMessage;
}

function toolResult(id: string, text: string): AgentMessage {
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: "read",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 0,
  } as AgentMessage;
}

/** The estimate with nothing remembered: the sum over every message. */
function counted(messages: readonly AgentMessage[], systemPrompt?: string): number {
  const prompt = systemPrompt ? Math.ceil(systemPrompt.length / 4) : 0;
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), prompt);
}

describe("estimateTokens on a transcript that changes between turns", () => {
  it("matches a full count while the transcript grows, turn after turn, with or without a system prompt", () => {
    const transcript: AgentMessage[] = [user("first question")];
    for (let turn = 1; turn <= 50; turn++) {
      expect(estimateTokens(transcript)).toBe(counted(transcript));
      expect(estimateTokens(transcript, "You are terse.")).toBe(counted(transcript, "You are terse."));
      transcript.push(toolResult(`call-${turn}`, "x".repeat(turn * 7)), user(`question ${turn}`));
    }
  });

  it("is not fooled by a compacted copy: a new array whose middle message was replaced", () => {
    const transcript = [user("start"), toolResult("a", "y".repeat(4000)), user("more"), toolResult("b", "short")];
    const before = estimateTokens(transcript);
    const compacted = transcript.slice();
    compacted[1] = toolResult("a", "[cleared]");
    expect(estimateTokens(compacted)).toBe(counted(compacted));
    expect(estimateTokens(compacted)).toBeLessThan(before);
    // The original is still counted in full when asked again.
    expect(estimateTokens(transcript)).toBe(before);
  });

  it("counts shorter views and interleaved arrays that share a first message correctly", () => {
    const first = user("shared start");
    const long = [first, user("a"), toolResult("c", "z".repeat(900)), user("b")];
    const view = [first, user("only in the view")];
    for (let i = 0; i < 3; i++) {
      expect(estimateTokens(long)).toBe(counted(long));
      expect(estimateTokens(view)).toBe(counted(view));
      expect(estimateTokens(long.slice(0, 2))).toBe(counted(long.slice(0, 2)));
    }
    expect(estimateTokens([])).toBe(0);
    expect(estimateTokens([], "abcd")).toBe(1);
  });
});
