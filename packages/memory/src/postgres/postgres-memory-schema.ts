import type { PgQueryable } from "./pg-queryable.js";

/** A schema name safe to splice into SQL (lower-case identifier). */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(`memory schema must be a lower-case SQL identifier, got ${JSON.stringify(schema)}`);
  }
  return schema;
}

/**
 * Creates the schema, the facts table (with a generated `tsvector` and its GIN index) and the miss log
 * (`memory_misses`), users' style observations (`memory_user_observations`) and the skill router's arms (`skill_arms`) when missing. One implicit
 * transaction under an advisory lock, so instances of a cluster starting together do not race to create them.
 */
export async function ensurePostgresMemorySchema(db: PgQueryable, schema: string): Promise<void> {
  await db.query(`
    SELECT pg_advisory_xact_lock(hashtext('chorus_memory_schema:${schema}'));
    CREATE SCHEMA IF NOT EXISTS ${schema};
    CREATE TABLE IF NOT EXISTS ${schema}.memory_facts (
      seq BIGSERIAL,
      id TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      subject TEXT,
      text TEXT NOT NULL,
      norm TEXT NOT NULL,
      source_session TEXT NOT NULL,
      source_message TEXT,
      source_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      history JSONB NOT NULL DEFAULT '[]',
      embedding REAL[],
      tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text)) STORED
    );
    CREATE UNIQUE INDEX IF NOT EXISTS memory_facts_scope_norm ON ${schema}.memory_facts (scope, norm);
    CREATE UNIQUE INDEX IF NOT EXISTS memory_facts_scope_subject ON ${schema}.memory_facts (scope, subject)
      WHERE subject IS NOT NULL;
    CREATE INDEX IF NOT EXISTS memory_facts_scope_updated ON ${schema}.memory_facts (scope, updated_at DESC);
    CREATE INDEX IF NOT EXISTS memory_facts_tsv ON ${schema}.memory_facts USING GIN (tsv);
    CREATE TABLE IF NOT EXISTS ${schema}.memory_misses (
      seq BIGSERIAL PRIMARY KEY,
      agent_id TEXT NOT NULL,
      session_key TEXT NOT NULL,
      query TEXT NOT NULL,
      strategy TEXT NOT NULL,
      reason TEXT NOT NULL,
      error TEXT NOT NULL,
      at BIGINT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS memory_misses_agent_seq ON ${schema}.memory_misses (agent_id, seq DESC);
    CREATE TABLE IF NOT EXISTS ${schema}.memory_user_observations (
      seq BIGSERIAL PRIMARY KEY,
      scope TEXT NOT NULL,
      style TEXT NOT NULL,
      at BIGINT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS memory_user_observations_scope_seq
      ON ${schema}.memory_user_observations (scope, seq DESC);
    CREATE TABLE IF NOT EXISTS ${schema}.skill_arms (
      agent_id TEXT NOT NULL,
      skill TEXT NOT NULL,
      alpha DOUBLE PRECISION NOT NULL,
      beta DOUBLE PRECISION NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (agent_id, skill)
    );
  `);
}
