import {
  type Embedder,
  type MemoryStore,
  recallFacts,
  type SqliteMemoryStore,
  storeFactEmbeddings,
} from "@chorus/memory";
import { hashedWordEmbedding } from "@chorus/testkit";
import type { UserConversation } from "../workloads/memory-conversations.js";
import { percentile } from "./stats.js";

const DAY_MS = 86_400_000;
const START = Date.UTC(2025, 0, 1);

/** The deterministic test embedding of the bench: the fake OpenAI's hashed words, as vectors. */
export const hashedWordEmbedder: Embedder = async (texts) =>
  texts.map((text) => Float32Array.from(hashedWordEmbedding(text)));

/** Recall quality of one ranking over a question set. */
export interface RecallQuality {
  readonly questions: number;
  readonly recallAt5: number;
  readonly mrr: number;
  readonly updatedQuestions: number;
  readonly updatedRecallAt5: number;
  readonly updatedMrr: number;
}

/**
 * Writes every user's facts in session order (one session a day, so recency means something) into `store`, with
 * embeddings when `embedder` is given. Contract: each user's scope is `user:<user>`.
 */
export async function loadConversations(
  store: SqliteMemoryStore,
  clock: { now: number },
  conversations: readonly UserConversation[],
  embedder?: Embedder,
): Promise<void> {
  for (const conversation of conversations) {
    const scope = `user:${conversation.user}`;
    store.database.exec("BEGIN");
    const written = [];
    for (const fact of conversation.facts) {
      clock.now = START + fact.session * DAY_MS;
      const result = store.rememberSync({
        scope,
        text: fact.text,
        ...(fact.subject === undefined ? {} : { subject: fact.subject }),
        source: { sessionKey: `bench:${conversation.user}:${fact.session}`, at: clock.now },
      });
      if (result.kind !== "merged") written.push(result.fact);
    }
    store.database.exec("COMMIT");
    if (embedder !== undefined) {
      const latest = new Map(written.map((fact) => [fact.id, fact]));
      await storeFactEmbeddings(store, embedder, [...latest.values()]);
    }
  }
}

/** Asks every question (after the last session) and scores where its current fact ranks among the top 10. */
export async function measureRecallQuality(
  store: MemoryStore,
  conversations: readonly UserConversation[],
  now: number,
  embedder?: Embedder,
): Promise<RecallQuality> {
  const ranks: { rank: number | undefined; updated: boolean }[] = [];
  for (const conversation of conversations) {
    for (const question of conversation.questions) {
      const result = await recallFacts(store, [`user:${conversation.user}`], question.question, {
        k: 10,
        budgetMs: 60_000,
        now: () => now,
        ...(embedder === undefined ? {} : { embedder }),
      });
      const facts = result.kind === "recalled" ? result.facts : [];
      const index = facts.findIndex((hit) => hit.fact.text === question.expected);
      ranks.push({ rank: index === -1 ? undefined : index + 1, updated: question.updated });
    }
  }
  const score = (list: typeof ranks) => ({
    recallAt5: list.filter((r) => r.rank !== undefined && r.rank <= 5).length / Math.max(1, list.length),
    mrr: list.reduce((sum, r) => sum + (r.rank === undefined ? 0 : 1 / r.rank), 0) / Math.max(1, list.length),
  });
  const all = score(ranks);
  const updatedRanks = ranks.filter((r) => r.updated);
  const updated = score(updatedRanks);
  return {
    questions: ranks.length,
    recallAt5: all.recallAt5,
    mrr: all.mrr,
    updatedQuestions: updatedRanks.length,
    updatedRecallAt5: updated.recallAt5,
    updatedMrr: updated.mrr,
  };
}

/** Latency of `recallFacts` (top 5, no budget) over `queries` questions drawn round-robin from the users. */
export async function measureRecallLatency(
  store: MemoryStore,
  conversations: readonly UserConversation[],
  queries: number,
  now: number,
  embedder?: Embedder,
): Promise<{ p50Ms: number; p99Ms: number; maxMs: number }> {
  const times: number[] = [];
  for (let i = 0; i < queries; i++) {
    const conversation = conversations[i % conversations.length] as UserConversation;
    const question = conversation.questions[i % conversation.questions.length];
    if (question === undefined) continue;
    const started = performance.now();
    await recallFacts(store, [`user:${conversation.user}`, "agent:bench"], question.question, {
      budgetMs: 60_000,
      now: () => now,
      ...(embedder === undefined ? {} : { embedder }),
    });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: times.at(-1) ?? Number.NaN };
}

/** The clock after the last of `sessions` sessions. */
export function afterSessions(sessions: number): number {
  return START + sessions * DAY_MS;
}
