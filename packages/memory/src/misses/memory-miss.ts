import { looksLikeSecret } from "../facts/check-fact-text.js";
import type { RecallResult } from "../recall/recall-facts.js";
import { searchTerms } from "../search/search-terms.js";

/** The seed's stable outcome string: consumers of the miss log depend on it. */
export const MEMORY_MISS_OUTCOME = "memory_miss";

/** A miss's query (and error text) is cut to this many characters before it is stored: no unbounded writes. */
export const MEMORY_MISS_QUERY_CHARS = 512;

/** What a miss keeps instead of a query shaped like a key, token or password (`looksLikeSecret`). */
export const WITHHELD_MISS_QUERY = "[withheld: the query looked like a secret]";

/** How many misses a store keeps per agent by default: the newest, older ones pruned on insert. */
export const MAX_MEMORY_MISSES = 1_000;

/** How recall ranked: full text (BM25 / ts_rank) alone, or fused with vector similarity. */
export type RecallStrategy = "fulltext" | "hybrid";

/** Why a recall missed: nothing ranked, the time budget ran out, or the store or embedder failed. */
export type MemoryMissReason = "no_results" | "timeout" | "error";

/** A recall that found nothing or failed, as the caller knows it (before it is stored). */
export interface NewMemoryMiss {
  /** The recall query; cut to `MEMORY_MISS_QUERY_CHARS` when stored. */
  readonly query: string;
  readonly strategy: RecallStrategy;
  readonly reason: MemoryMissReason;
  /** `no_results`, `timeout`, or the error's description (cut like the query). */
  readonly error: string;
  readonly sessionKey: string;
  /** The agent whose log holds it (the bound is per agent). */
  readonly agentId: string;
  /** Epoch ms. */
  readonly at: number;
}

/** One stored miss: the seed's fields (outcome `memory_miss`, query, strategy, error, session, time). */
export interface MemoryMiss extends NewMemoryMiss {
  readonly outcome: typeof MEMORY_MISS_OUTCOME;
}

/** The newest misses of an agent, newest first, and how many its log holds. */
export interface MemoryMissPage {
  readonly misses: readonly MemoryMiss[];
  readonly total: number;
}

/** What a recall's miss says, before the caller adds its session, agent and time. */
export type RecallMiss = Pick<NewMemoryMiss, "query" | "strategy" | "reason" | "error">;

/** One recall as it was asked: what, where, how. */
export interface RecallAttempt {
  readonly query: string;
  readonly scopes: readonly string[];
  readonly strategy: RecallStrategy;
}

/**
 * The miss in a recall's result, or undefined when it recalled something or searched nothing (no scopes, a query
 * without a search term: nothing was attempted). Contract: pure; the query and error text are cut to
 * `MEMORY_MISS_QUERY_CHARS`; a query shaped like a secret is kept as `WITHHELD_MISS_QUERY`.
 * @example recallMissOf(await recallFacts(store, scopes, query), { query, scopes, strategy: "fulltext" })
 */
export function recallMissOf(
  result: RecallResult,
  attempt: RecallAttempt,
  describe: (error: unknown) => string = describeRecallError,
): RecallMiss | undefined {
  const { strategy } = attempt;
  if (attempt.scopes.length === 0 || searchTerms(attempt.query).length === 0) return undefined;
  const query = looksLikeSecret(attempt.query) ? WITHHELD_MISS_QUERY : cutMissText(attempt.query);
  if (result.kind === "recalled") {
    return result.facts.length > 0 ? undefined : { query, strategy, reason: "no_results", error: "no_results" };
  }
  if (result.reason === "timeout") return { query, strategy, reason: "timeout", error: "timeout" };
  return { query, strategy, reason: "error", error: cutMissText(describe(result.error)) };
}

function describeRecallError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** `text` cut to `MEMORY_MISS_QUERY_CHARS` characters (whole code points). */
export function cutMissText(text: string): string {
  const points = Array.from(text);
  return points.length <= MEMORY_MISS_QUERY_CHARS ? text : points.slice(0, MEMORY_MISS_QUERY_CHARS).join("");
}
