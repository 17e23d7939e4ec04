import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";

/**
 * Creates the memory tables when missing: the miss log (`memory_misses`, newest per agent), users' style observations
 * (`memory_user_observations`, newest per user), the skill router's arms
 * (`skill_arms`), facts, and an FTS5 index (porter stemmer) whose rowid is the fact's, with
 * the fact's scope as one indexed token (`scopeToken`), so a search reads only its scopes' postings however many
 * facts other scopes hold. `secure-delete` makes a deleted fact's words leave the index itself, not just stop
 * matching.
 */
export function ensureSqliteMemorySchema(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS memory_facts (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      scope TEXT NOT NULL,
      subject TEXT,
      text TEXT NOT NULL,
      norm TEXT NOT NULL,
      source_session TEXT NOT NULL,
      source_message TEXT,
      source_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      history TEXT NOT NULL DEFAULT '[]',
      embedding BLOB
    );
    CREATE UNIQUE INDEX IF NOT EXISTS memory_facts_scope_norm ON memory_facts (scope, norm);
    CREATE UNIQUE INDEX IF NOT EXISTS memory_facts_scope_subject ON memory_facts (scope, subject) WHERE subject IS NOT NULL;
    CREATE INDEX IF NOT EXISTS memory_facts_scope_updated ON memory_facts (scope, updated_at DESC);
    CREATE TABLE IF NOT EXISTS memory_misses (
      seq INTEGER PRIMARY KEY,
      agent_id TEXT NOT NULL,
      session_key TEXT NOT NULL,
      query TEXT NOT NULL,
      strategy TEXT NOT NULL,
      reason TEXT NOT NULL,
      error TEXT NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS memory_misses_agent_seq ON memory_misses (agent_id, seq DESC);
    CREATE TABLE IF NOT EXISTS memory_user_observations (
      seq INTEGER PRIMARY KEY,
      scope TEXT NOT NULL,
      style TEXT NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS memory_user_observations_scope_seq ON memory_user_observations (scope, seq DESC);
    CREATE TABLE IF NOT EXISTS skill_arms (
      agent_id TEXT NOT NULL,
      skill TEXT NOT NULL,
      alpha REAL NOT NULL,
      beta REAL NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (agent_id, skill)
    );
  `);
  const hasIndex = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'memory_facts_fts'").get() !== undefined;
  if (!hasIndex) {
    db.exec(`
      CREATE VIRTUAL TABLE memory_facts_fts USING fts5(text, scope_key, tokenize = 'porter unicode61');
      INSERT INTO memory_facts_fts (memory_facts_fts, rank) VALUES ('secure-delete', 1);
    `);
  }
}

/** A scope as one FTS5 token: `s` and 20 hex digits of its SHA-256 (letters and digits only, so never an operator). */
export function scopeToken(scope: string): string {
  return `s${createHash("sha256").update(scope).digest("hex").slice(0, 20)}`;
}
