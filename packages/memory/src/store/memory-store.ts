import type {
  Fact,
  FactHit,
  FactPage,
  MemoryExport,
  NewFact,
  RememberResult,
  ScopeCount,
} from "../facts/fact-types.js";
import type { MemoryMissPage, NewMemoryMiss } from "../misses/memory-miss.js";
import type { SkillArmStore } from "../skill-arms/skill-arm-record.js";
import type { NewUserObservation, UserObservationPage } from "../user-model/style-observation.js";

/** A fact's embedding vector, for hybrid recall. */
export interface FactVector {
  readonly id: string;
  readonly vector: Float32Array;
}

/**
 * Durable long-term memory: facts grouped by scope. Every call names its scope(s) and touches nothing else; the
 * caller (the gateway) decides the scope, never the model. Implementations: `SqliteMemoryStore`,
 * `PostgresMemoryStore` (one conformance suite). It also keeps the skill router's arms (`SkillArmStore`).
 */
export interface MemoryStore extends SkillArmStore {
  /**
   * Stores a fact. Contract: the text is checked first (`MemoryError`: empty, over the cap, or holding a secret —
   * nothing is written then); the same text in the same scope merges; the same subject replaces, history kept.
   */
  remember(input: NewFact): Promise<RememberResult>;
  /**
   * Deletes from `scope` the fact with id `target`, or else every fact whose text holds the words of `target` as
   * whole words, in order (`holdsWords`: "cat" never matches "scattering"; case and punctuation aside). Contract:
   * deleted rows are gone, also from the search index; returns what was deleted.
   */
  forget(scope: string, target: string): Promise<Fact[]>;
  /** The facts `forget(scope, target)` would delete now (to confirm first). Contract: deletes nothing. */
  forgettable(scope: string, target: string): Promise<Fact[]>;
  /** One fact of `scope` by id, or undefined. */
  get(scope: string, id: string): Promise<Fact | undefined>;
  /** A page of `scope`'s facts, most recently updated first (`limit` default 20, at most 200). */
  list(scope: string, page?: { limit?: number; offset?: number }): Promise<FactPage>;
  /**
   * Full-text search (BM25 / ts_rank) over `scopes`, best first (`limit` default 20). Contract: any query is safe —
   * punctuation, quotes or FTS operators give fewer or no hits, never a syntax error.
   */
  search(scopes: readonly string[], query: string, options?: { limit?: number }): Promise<FactHit[]>;
  /** Every fact of `scope`, as JSON-ready data. */
  export(scope: string): Promise<MemoryExport>;
  /** How many facts each scope holds (scopes with none are left out), largest first. */
  countByScope(): Promise<ScopeCount[]>;
  /** Keeps `vector` as the embedding of fact `id` (ignored when the fact is gone). */
  setEmbedding(id: string, vector: Float32Array): Promise<void>;
  /** The embeddings of `scopes`' facts that have one. */
  embeddings(scopes: readonly string[]): Promise<FactVector[]>;
  /** Facts by id (any order; missing ids left out). */
  getMany(ids: readonly string[]): Promise<Fact[]>;
  /**
   * Logs a recall that found nothing or failed (operator data: never shown to the model or to users). Contract: the
   * query and error are cut to `MEMORY_MISS_QUERY_CHARS`; the agent's log keeps its newest `maxMisses` (default
   * `MAX_MEMORY_MISSES`), older ones pruned by this insert.
   */
  recordMiss(miss: NewMemoryMiss): Promise<void>;
  /** The newest misses of `agentId`, newest first (`limit` default 20, at most 200), and how many it holds. */
  misses(agentId: string, page?: { limit?: number }): Promise<MemoryMissPage>;
  /**
   * Keeps one style observation of a user (the per-user model, seed 003 step 2). Contract: the user's newest
   * `MAX_USER_OBSERVATIONS` stay, older ones pruned by this insert; nothing of another scope is touched.
   */
  observeUser(observation: NewUserObservation): Promise<void>;
  /** The newest observations of the user `scope`, newest first (`limit` default 20, at most 200), and how many. */
  userObservations(scope: string, page?: { limit?: number }): Promise<UserObservationPage>;
  /** Deletes every observation of the user `scope`; returns how many there were. */
  clearUserObservations(scope: string): Promise<number>;
  close(): Promise<void>;
}
