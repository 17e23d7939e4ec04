import type { AgentMessage } from "../../src/index.js";
import { assistantText, userMessage } from "../../src/testing/index.js";

/** Text of about `tokens` tokens. */
export const big = (tokens: number): string => "x".repeat(tokens * 4);

/** A chat of `pairs` user/assistant exchanges of ~`tokens` each, with distinct timestamps (the fingerprint's). */
export function chat(pairs: number, tokens: number): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = 0; i < pairs; i++) {
    messages.push({ ...userMessage(`q${i} ${big(tokens)}`), timestamp: 1_000 + 2 * i });
    messages.push({ ...assistantText(`a${i} ${big(tokens)}`), timestamp: 1_001 + 2 * i });
  }
  return messages;
}

/** A stored snapshot covering `messages[index]`. */
export function snapshotCovering(messages: readonly AgentMessage[], index: number, text = "the kept summary") {
  const m = messages[index] as { role: string; timestamp: number };
  return { version: 1 as const, text, covered: { index, role: m.role, timestamp: m.timestamp } };
}

/** The compaction summariser's requests start with this (tier 2). */
export const isSummaryCall = (systemPrompt: string | undefined): boolean =>
  systemPrompt?.startsWith("You are compacting") === true;
