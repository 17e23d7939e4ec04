import type { AgentMessage } from "../../messages/message-types.js";
import { type SubgoalRegistry, TIER_RELEVANCE } from "./subgoal-registry.js";

/** How tool outputs are scored for eviction (seed 002): by subgoal tier, or by tier minus redundancy (MIG). */
export type SubgoalPruningStrategy = "subgoal" | "subgoal_mig";

/**
 * Eviction score of every message: its tier's relevance (active 1.0, completed 0.3, outdated 0.1); with
 * `subgoal_mig`, a tool result's score also loses its largest redundancy with any higher-scored tool result.
 * Contract: active-tier messages always score 1.0 (never evicted); lower scores go first.
 */
export function evictionScores(
  messages: readonly AgentMessage[],
  registry: SubgoalRegistry,
  strategy: SubgoalPruningStrategy,
): number[] {
  const scores = messages.map((_, i) => TIER_RELEVANCE[registry.tierOf(i)]);
  if (strategy !== "subgoal_mig") return scores;
  const blocks = messages
    .map((m, i) => ({ i, words: (m as { role: string }).role === "toolResult" ? wordsOf(m) : undefined }))
    .filter((b): b is { i: number; words: Set<string> } => b.words !== undefined)
    .sort((a, b) => (scores[b.i] as number) - (scores[a.i] as number) || b.i - a.i);
  const placed: Set<string>[] = [];
  for (const block of blocks) {
    const relevance = scores[block.i] as number;
    let redundancy = 0;
    for (const other of placed) redundancy = Math.max(redundancy, overlap(block.words, other));
    // Active outputs keep their relevance: MIG never pushes them below the protected score.
    if (relevance < TIER_RELEVANCE.active) scores[block.i] = relevance - redundancy;
    placed.push(block.words);
  }
  return scores;
}

function wordsOf(message: AgentMessage): Set<string> {
  const content = (message as { content?: unknown }).content;
  const text = Array.isArray(content)
    ? (content as { type: string; text?: string; name?: string }[])
        .map((c) =>
          c.type === "text" ? (c.text ?? "") : c.type === "document" || c.type === "attachment" ? (c.name ?? "") : "",
        )
        .join(" ")
    : String(content ?? "");
  return new Set(text.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? []);
}

/** Jaccard similarity of two word sets. */
function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
