import type { Fact } from "../facts/fact-types.js";
import type { MemoryStore } from "../store/memory-store.js";
import type { Embedder } from "./embedder.js";

/**
 * Embeds `facts`' texts in one request and keeps the vectors in `store`. Contract: rejects when the embedder does
 * (the facts stay searchable by full text); a fact deleted meanwhile is skipped.
 */
export async function storeFactEmbeddings(
  store: MemoryStore,
  embedder: Embedder,
  facts: readonly Fact[],
  signal?: AbortSignal,
): Promise<void> {
  if (facts.length === 0) return;
  const vectors = await embedder(
    facts.map((fact) => fact.text),
    signal,
  );
  for (const [index, fact] of facts.entries()) {
    const vector = vectors[index];
    if (vector !== undefined) await store.setEmbedding(fact.id, vector);
  }
}
