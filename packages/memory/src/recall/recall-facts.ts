import type { Embedder } from "../embeddings/embedder.js";
import type { Fact } from "../facts/fact-types.js";
import { searchTerms } from "../search/search-terms.js";
import type { MemoryStore } from "../store/memory-store.js";
import { maximalMarginalRelevance } from "./diversity-cut.js";
import { recencyFactor, reciprocalRankFusion } from "./rank-fusion.js";
import { cosineSimilarity, wordOverlap } from "./vector-similarity.js";

/** How recall ranks and how long it may take. Every field has a default. */
export interface RecallOptions {
  /** How many facts at most (default 5). */
  readonly k?: number;
  /** Vector similarity beside full text; without it recall is BM25 alone. */
  readonly embedder?: Embedder;
  /** The time budget in ms (default 50): past it, recall answers `skipped` at once and drops the late result. */
  readonly budgetMs?: number;
  /** How many candidates each ranking hands to fusion (default 50). */
  readonly candidates?: number;
  /** Recency: half-life of a fact's recency bonus (default 30 days) and its weight in [0, 1] (default 0.2). */
  readonly recencyHalfLifeMs?: number;
  readonly recencyWeight?: number;
  /** MMR trade-off between relevance (1) and diversity (0); default 0.7. */
  readonly mmrLambda?: number;
  /** A vector hit below this cosine similarity is no hit (default 0.2). */
  readonly minSimilarity?: number;
  readonly now?: () => number;
}

/** One recalled fact and its final score. */
export interface RecalledFact {
  readonly fact: Fact;
  readonly score: number;
}

/** What recall did: the facts (maybe none), or why it gave up (it never throws). */
export type RecallResult =
  | { readonly kind: "recalled"; readonly facts: readonly RecalledFact[]; readonly tookMs: number }
  | {
      readonly kind: "skipped";
      readonly reason: "timeout" | "error";
      readonly tookMs: number;
      readonly error?: unknown;
    };

const DAY_MS = 86_400_000;

/**
 * The top-k facts of `scopes` for `query`: full-text (BM25) ranks and, with an embedder, vector-similarity ranks,
 * fused by reciprocal rank fusion, weighted by recency, then cut for diversity (MMR). Contract: never rejects; when
 * the budget runs out it resolves `skipped` at once (the embedding request is aborted, a late result dropped);
 * an embedder failure falls back to full text alone. Synchronous work (SQLite) cannot be interrupted: the budget
 * bounds the awaited parts.
 */
export async function recallFacts(
  store: MemoryStore,
  scopes: readonly string[],
  query: string,
  options: RecallOptions = {},
): Promise<RecallResult> {
  const now = options.now ?? Date.now;
  const started = performance.now();
  const took = () => Math.round((performance.now() - started) * 100) / 100;
  const budget = options.budgetMs ?? 50;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<RecallResult>((resolve) => {
    timer = setTimeout(() => {
      abort.abort(new Error("recall budget exceeded"));
      resolve({ kind: "skipped", reason: "timeout", tookMs: took() });
    }, budget);
  });
  const work = rankFacts(store, scopes, query, options, now(), abort.signal).then(
    (facts): RecallResult => ({ kind: "recalled", facts, tookMs: took() }),
    (error: unknown): RecallResult => ({ kind: "skipped", reason: "error", tookMs: took(), error }),
  );
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function rankFacts(
  store: MemoryStore,
  scopes: readonly string[],
  query: string,
  options: RecallOptions,
  now: number,
  signal: AbortSignal,
): Promise<RecalledFact[]> {
  const terms = searchTerms(query);
  if (terms.length === 0 || scopes.length === 0) return [];
  const k = options.k ?? 5;
  const width = options.candidates ?? 50;
  const vectorRanking =
    options.embedder === undefined ? undefined : rankByVector(store, scopes, query, options, signal);
  const textHits = await store.search(scopes, query, { limit: width });
  const vectorHits = await vectorRanking?.catch(() => undefined);
  const lists = [textHits.map((hit) => hit.fact.id)];
  if (vectorHits !== undefined) lists.push(vectorHits.ranked.slice(0, width).map((hit) => hit.id));
  const fused = reciprocalRankFusion(lists);
  const facts = new Map(textHits.map((hit) => [hit.fact.id, hit.fact]));
  const missing = fused.map((entry) => entry.id).filter((id) => !facts.has(id));
  for (const fact of await store.getMany(missing)) facts.set(fact.id, fact);
  const halfLife = options.recencyHalfLifeMs ?? 30 * DAY_MS;
  const weight = options.recencyWeight ?? 0.2;
  const candidates = fused.flatMap((entry) => {
    const fact = facts.get(entry.id);
    if (fact === undefined) return [];
    return [{ id: entry.id, fact, score: entry.score * recencyFactor(now - fact.updatedAt, halfLife, weight) }];
  });
  candidates.sort((a, b) => b.score - a.score);
  const vectors = vectorHits?.vectors;
  const words = new Map(candidates.map((c) => [c.id, new Set(searchTerms(c.fact.text))]));
  const similarity = (a: { id: string }, b: { id: string }) => {
    const va = vectors?.get(a.id);
    const vb = vectors?.get(b.id);
    if (va !== undefined && vb !== undefined) return cosineSimilarity(va, vb);
    return wordOverlap(words.get(a.id) ?? new Set(), words.get(b.id) ?? new Set());
  };
  return maximalMarginalRelevance(candidates.slice(0, k * 4), k, similarity, options.mmrLambda).map((c) => ({
    fact: c.fact,
    score: c.score,
  }));
}

async function rankByVector(
  store: MemoryStore,
  scopes: readonly string[],
  query: string,
  options: RecallOptions,
  signal: AbortSignal,
): Promise<{ ranked: { id: string; similarity: number }[]; vectors: Map<string, Float32Array> }> {
  const embedder = options.embedder as Embedder;
  const [[queryVector], stored] = await Promise.all([embedder([query], signal), store.embeddings(scopes)]);
  if (queryVector === undefined) return { ranked: [], vectors: new Map() };
  const minimum = options.minSimilarity ?? 0.2;
  const ranked = stored
    .map((entry) => ({ id: entry.id, similarity: cosineSimilarity(queryVector, entry.vector) }))
    .filter((entry) => entry.similarity >= minimum)
    .sort((a, b) => b.similarity - a.similarity);
  return { ranked, vectors: new Map(stored.map((entry) => [entry.id, entry.vector])) };
}
