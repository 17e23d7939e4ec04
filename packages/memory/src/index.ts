export type { Embedder } from "./embeddings/embedder.js";
export { createOpenAiEmbedder, EmbeddingError, type OpenAiEmbedderOptions } from "./embeddings/openai-embedder.js";
export { storeFactEmbeddings } from "./embeddings/store-fact-embeddings.js";
export {
  EXTRACTION_PROMPT,
  type ExtractFactsOptions,
  type ExtractionMessage,
  extractFacts,
  type ProposedFact,
} from "./extraction/extract-facts.js";
export { checkFactText, looksLikeSecret, MAX_FACT_CHARS } from "./facts/check-fact-text.js";
export { isFactId } from "./facts/fact-id.js";
export type {
  Fact,
  FactHit,
  FactPage,
  FactRevision,
  FactSource,
  MemoryExport,
  NewFact,
  RememberResult,
  ScopeCount,
} from "./facts/fact-types.js";
export { MemoryError, type MemoryErrorCode } from "./facts/memory-errors.js";
export { MAX_FACT_HISTORY } from "./facts/plan-remember.js";
export { holdsWords, wordsOf } from "./facts/whole-words.js";
export {
  cutMissText,
  MAX_MEMORY_MISSES,
  MEMORY_MISS_OUTCOME,
  MEMORY_MISS_QUERY_CHARS,
  type MemoryMiss,
  type MemoryMissPage,
  type MemoryMissReason,
  type NewMemoryMiss,
  type RecallAttempt,
  type RecallMiss,
  type RecallStrategy,
  recallMissOf,
  WITHHELD_MISS_QUERY,
} from "./misses/memory-miss.js";
export { countMemoryMiss } from "./misses/memory-miss-metric.js";
export { type MemoryMissLog, recordMemoryMiss } from "./misses/record-memory-miss.js";
export type { PgPoolLike, PgQueryable } from "./postgres/pg-queryable.js";
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from "./postgres/postgres-memory-store.js";
export { type DiversityCandidate, maximalMarginalRelevance } from "./recall/diversity-cut.js";
export { RRF_K, recencyFactor, reciprocalRankFusion } from "./recall/rank-fusion.js";
export { type RecalledFact, type RecallOptions, type RecallResult, recallFacts } from "./recall/recall-facts.js";
export {
  RECALL_BLOCK_CLOSE,
  RECALL_BLOCK_NOTICE,
  RECALL_BLOCK_OPEN,
  renderRecallBlock,
} from "./recall/render-recall-block.js";
export { cosineSimilarity } from "./recall/vector-similarity.js";
export { formatMemoryScope, type MemoryScope, parseMemoryScope } from "./scope/memory-scope.js";
export { searchTerms } from "./search/search-terms.js";
export type { SkillArmCredit, SkillArmRecord, SkillArmStore } from "./skill-arms/skill-arm-record.js";
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from "./sqlite/sqlite-memory-store.js";
export type { FactVector, MemoryStore } from "./store/memory-store.js";
export { createMemoryTools } from "./tools/create-memory-tools.js";
export type { HeldFact, MemoryToolScopes, MemoryToolsOptions } from "./tools/memory-tool-options.js";
export { describeUserStyle, MIN_STYLE_OBSERVATIONS } from "./user-model/describe-user-style.js";
export { detectStyle } from "./user-model/detect-style.js";
export {
  type Formality,
  MAX_USER_OBSERVATIONS,
  type NewUserObservation,
  type StyleObservation,
  type UserObservation,
  type UserObservationPage,
} from "./user-model/style-observation.js";
