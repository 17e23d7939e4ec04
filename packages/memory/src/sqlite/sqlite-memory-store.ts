import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { MAX_FACT_CHARS } from "../facts/check-fact-text.js";
import { isFactId } from "../facts/fact-id.js";
import type {
  Fact,
  FactHit,
  FactPage,
  MemoryExport,
  NewFact,
  RememberResult,
  ScopeCount,
} from "../facts/fact-types.js";
import { MemoryError } from "../facts/memory-errors.js";
import { checkNewFact, planRemember } from "../facts/plan-remember.js";
import { holdsWords } from "../facts/whole-words.js";
import { MAX_MEMORY_MISSES, type MemoryMissPage, type NewMemoryMiss } from "../misses/memory-miss.js";
import { checkMaxMisses, MISS_COLUMNS, type MissRow, missFromRow, missValues } from "../misses/miss-rows.js";
import { searchTerms } from "../search/search-terms.js";
import {
  creditIncrements,
  type SkillArmCredit,
  type SkillArmRecord,
  skillArmFromRow,
} from "../skill-arms/skill-arm-record.js";
import { FACT_COLUMNS, type FactRow, factFromRow, factValues, pageLimit } from "../store/fact-rows.js";
import type { FactVector, MemoryStore } from "../store/memory-store.js";
import { type ObservationRow, observationFromRow, observationValues } from "../user-model/observation-rows.js";
import {
  MAX_USER_OBSERVATIONS,
  type NewUserObservation,
  type UserObservationPage,
} from "../user-model/style-observation.js";
import { ensureSqliteMemorySchema, scopeToken } from "./sqlite-memory-schema.js";

/** How to open a `SqliteMemoryStore`: a file (`":memory:"` for a throwaway one) or a database you already hold. */
export interface SqliteMemoryStoreOptions {
  /** A database file, created when missing. */
  readonly path?: string;
  /** An open database to share (e.g. the session store's); the store then never closes it. */
  readonly database?: DatabaseSync;
  /** The longest fact kept (default `MAX_FACT_CHARS`). */
  readonly maxFactChars?: number;
  /** How many recall misses the log keeps per agent (default `MAX_MEMORY_MISSES`). */
  readonly maxMisses?: number;
  /** The clock (epoch ms). */
  readonly now?: () => number;
}

/**
 * Long-term memory in SQLite (`node:sqlite`): facts in a table, their words in an FTS5 index ranked by BM25. Every
 * write is one transaction; a deleted fact is deleted from the index too (FTS5 `secure-delete`), and its page
 * bytes zeroed (`PRAGMA secure_delete`). The synchronous `*Sync` methods let a caller write facts inside its own
 * transaction on a shared database.
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly database: DatabaseSync;
  private readonly owned: boolean;
  private readonly maxFactChars: number;
  private readonly maxMisses: number;
  private readonly now: () => number;
  private closed = false;

  constructor(options: SqliteMemoryStoreOptions) {
    this.maxMisses = checkMaxMisses(options.maxMisses, MAX_MEMORY_MISSES);
    if (options.database !== undefined) {
      this.database = options.database;
      this.owned = false;
    } else {
      this.database = new DatabaseSync(options.path ?? ":memory:");
      this.owned = true;
      this.database.exec("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;");
    }
    this.database.exec("PRAGMA secure_delete = ON;");
    this.maxFactChars = options.maxFactChars ?? MAX_FACT_CHARS;
    this.now = options.now ?? Date.now;
    ensureSqliteMemorySchema(this.database);
  }

  remember(input: NewFact): Promise<RememberResult> {
    return this.run(() => this.inTransaction(() => this.rememberSync(input)));
  }

  /** `remember` without its own transaction: for a caller that writes it inside one of its own. */
  rememberSync(input: NewFact): RememberResult {
    this.assertOpen();
    const { fact: checked, norm } = checkNewFact(input, this.maxFactChars);
    const { subject } = checked;
    const sameText = this.one("SELECT * FROM memory_facts WHERE scope = ? AND norm = ?", [input.scope, norm]);
    const sameSubject =
      subject === undefined
        ? undefined
        : this.one("SELECT * FROM memory_facts WHERE scope = ? AND subject = ?", [input.scope, subject]);
    const plan = planRemember(checked, sameText, sameSubject, this.now());
    const fact = plan.fact;
    if (plan.kind === "added") {
      const { lastInsertRowid } = this.database
        .prepare(`INSERT INTO memory_facts (${FACT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(...factValues(fact, norm));
      this.#index(Number(lastInsertRowid), checked.text, input.scope);
    } else if (plan.kind === "merged") {
      this.database
        .prepare("UPDATE memory_facts SET updated_at = ?, subject = ? WHERE id = ?")
        .run(fact.updatedAt, fact.subject ?? null, fact.id);
    } else {
      const row = this.database.prepare("SELECT rowid FROM memory_facts WHERE id = ?").get(fact.id) as {
        rowid: number;
      };
      this.database
        .prepare(
          `UPDATE memory_facts SET text = ?, norm = ?, source_session = ?, source_message = ?, source_at = ?,
             updated_at = ?, history = ?, embedding = NULL WHERE id = ?`,
        )
        .run(
          fact.text,
          norm,
          fact.source.sessionKey,
          fact.source.messageId ?? null,
          fact.source.at,
          fact.updatedAt,
          JSON.stringify(fact.history),
          fact.id,
        );
      this.database.prepare("DELETE FROM memory_facts_fts WHERE rowid = ?").run(row.rowid);
      this.#index(row.rowid, fact.text, fact.scope);
    }
    return plan;
  }

  forget(scope: string, target: string): Promise<Fact[]> {
    return this.run(() =>
      this.inTransaction(() => {
        const rows = this.forgettableRows(scope, target);
        for (const row of rows) {
          this.database.prepare("DELETE FROM memory_facts_fts WHERE rowid = ?").run(row.row_id);
          this.database.prepare("DELETE FROM memory_facts WHERE rowid = ?").run(row.row_id);
        }
        return rows.map(factFromRow);
      }),
    );
  }

  forgettable(scope: string, target: string): Promise<Fact[]> {
    return this.run(() => this.forgettableRows(scope, target).map(factFromRow));
  }

  /** The fact with id `target`, or else the scope's facts holding its words (matched here, as in every store). */
  private forgettableRows(scope: string, target: string) {
    const needle = target.trim();
    if (needle === "") return [];
    const byId = isFactId(needle)
      ? this.many("SELECT rowid AS row_id, * FROM memory_facts WHERE scope = ? AND id = ?", [scope, needle])
      : [];
    if (byId.length > 0) return byId;
    return this.many("SELECT rowid AS row_id, * FROM memory_facts WHERE scope = ?", [scope]).filter((row) =>
      holdsWords(String(row.text), needle),
    );
  }

  get(scope: string, id: string): Promise<Fact | undefined> {
    return this.run(() => {
      const row = this.one("SELECT * FROM memory_facts WHERE scope = ? AND id = ?", [scope, id]);
      return row === undefined ? undefined : row;
    });
  }

  getMany(ids: readonly string[]): Promise<Fact[]> {
    return this.run(() => {
      if (ids.length === 0) return [];
      const marks = ids.map(() => "?").join(", ");
      return this.many(`SELECT * FROM memory_facts WHERE id IN (${marks})`, [...ids]).map(factFromRow);
    });
  }

  list(scope: string, page: { limit?: number; offset?: number } = {}): Promise<FactPage> {
    return this.run(() => {
      const limit = pageLimit(page.limit);
      const offset = Math.max(0, Math.floor(page.offset ?? 0));
      const facts = this.many(
        "SELECT * FROM memory_facts WHERE scope = ? ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?",
        [scope, limit, offset],
      ).map(factFromRow);
      const { total } = this.database
        .prepare("SELECT count(*) AS total FROM memory_facts WHERE scope = ?")
        .get(scope) as { total: number };
      return { facts, total, offset };
    });
  }

  search(scopes: readonly string[], query: string, options: { limit?: number } = {}): Promise<FactHit[]> {
    return this.run(() => this.searchSync(scopes, query, options));
  }

  /** `search`, synchronously. */
  searchSync(scopes: readonly string[], query: string, options: { limit?: number } = {}): FactHit[] {
    this.assertOpen();
    const terms = searchTerms(query);
    if (terms.length === 0 || scopes.length === 0) return [];
    // Only these scopes' postings are read (their tokens AND the words); the scope check after it is belt and braces.
    const inScopes = scopes.map((scope) => `"${scopeToken(scope)}"`).join(" OR ");
    const match = `scope_key : (${inScopes}) AND (${terms.map((term) => `"${term}"`).join(" OR ")})`;
    const marks = scopes.map(() => "?").join(", ");
    const rows = this.many(
      `SELECT f.*, bm25(memory_facts_fts, 1.0, 0.0) AS rank FROM memory_facts_fts
         JOIN memory_facts f ON f.rowid = memory_facts_fts.rowid
        WHERE memory_facts_fts MATCH ? AND f.scope IN (${marks})
        ORDER BY rank LIMIT ?`,
      [match, ...scopes, pageLimit(options.limit)],
    ) as unknown as (FactRow & { rank: number })[];
    return rows.map((row) => ({ fact: factFromRow(row), score: -row.rank }));
  }

  export(scope: string): Promise<MemoryExport> {
    return this.run(() => {
      const facts = this.many("SELECT * FROM memory_facts WHERE scope = ? ORDER BY created_at, rowid", [scope]).map(
        factFromRow,
      );
      return { format: "chorus-memory-export", version: 1, scope, exportedAt: this.now(), facts };
    });
  }

  countByScope(): Promise<ScopeCount[]> {
    return this.run(
      () =>
        this.many(
          "SELECT scope, count(*) AS count FROM memory_facts GROUP BY scope ORDER BY count DESC, scope",
          [],
        ) as unknown as ScopeCount[],
    );
  }

  setEmbedding(id: string, vector: Float32Array): Promise<void> {
    return this.run(() => {
      const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
      this.database.prepare("UPDATE memory_facts SET embedding = ? WHERE id = ?").run(bytes, id);
    });
  }

  embeddings(scopes: readonly string[]): Promise<FactVector[]> {
    return this.run(() => {
      if (scopes.length === 0) return [];
      const marks = scopes.map(() => "?").join(", ");
      const rows = this.database
        .prepare(`SELECT id, embedding FROM memory_facts WHERE scope IN (${marks}) AND embedding IS NOT NULL`)
        .all(...scopes) as { id: string; embedding: Uint8Array }[];
      return rows.map((row) => ({
        id: row.id,
        vector: new Float32Array(row.embedding.slice().buffer),
      }));
    });
  }

  recordMiss(miss: NewMemoryMiss): Promise<void> {
    return this.run(() =>
      this.inTransaction(() => {
        this.database
          .prepare(`INSERT INTO memory_misses (${MISS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`)
          .run(...missValues(miss));
        // The newest `maxMisses` of the agent stay: everything at or below the first one past them goes.
        this.database
          .prepare(
            `DELETE FROM memory_misses WHERE agent_id = ? AND seq <= (
               SELECT seq FROM memory_misses WHERE agent_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
          )
          .run(miss.agentId, miss.agentId, this.maxMisses);
      }),
    );
  }

  misses(agentId: string, page: { limit?: number } = {}): Promise<MemoryMissPage> {
    return this.run(() => {
      const rows = this.database
        .prepare("SELECT * FROM memory_misses WHERE agent_id = ? ORDER BY seq DESC LIMIT ?")
        .all(agentId, pageLimit(page.limit)) as unknown as MissRow[];
      const { total } = this.database
        .prepare("SELECT count(*) AS total FROM memory_misses WHERE agent_id = ?")
        .get(agentId) as { total: number };
      return { misses: rows.map(missFromRow), total };
    });
  }

  skillArms(agentId: string): Promise<SkillArmRecord[]> {
    return this.run(() =>
      (
        this.database
          .prepare("SELECT skill, alpha, beta FROM skill_arms WHERE agent_id = ? ORDER BY skill")
          .all(agentId) as { skill: string; alpha: number; beta: number }[]
      ).map(skillArmFromRow),
    );
  }

  creditSkillArm(agentId: string, skill: string, credit: SkillArmCredit): Promise<void> {
    return this.run(() => {
      const [alpha, beta] = creditIncrements(credit);
      this.database
        .prepare(
          `INSERT INTO skill_arms (agent_id, skill, alpha, beta, updated_at) VALUES (?, ?, 1 + ?, 1 + ?, ?)
           ON CONFLICT (agent_id, skill) DO UPDATE SET alpha = skill_arms.alpha + ?, beta = skill_arms.beta + ?,
             updated_at = excluded.updated_at`,
        )
        .run(agentId, skill, alpha, beta, this.now(), alpha, beta);
    });
  }

  observeUser(observation: NewUserObservation): Promise<void> {
    return this.run(() =>
      this.inTransaction(() => {
        this.database
          .prepare("INSERT INTO memory_user_observations (scope, style, at) VALUES (?, ?, ?)")
          .run(...observationValues(observation));
        this.database
          .prepare(
            `DELETE FROM memory_user_observations WHERE scope = ? AND seq <= (
               SELECT seq FROM memory_user_observations WHERE scope = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
          )
          .run(observation.scope, observation.scope, MAX_USER_OBSERVATIONS);
      }),
    );
  }

  userObservations(scope: string, page: { limit?: number } = {}): Promise<UserObservationPage> {
    return this.run(() => {
      const rows = this.database
        .prepare("SELECT * FROM memory_user_observations WHERE scope = ? ORDER BY seq DESC LIMIT ?")
        .all(scope, pageLimit(page.limit)) as unknown as ObservationRow[];
      const { total } = this.database
        .prepare("SELECT count(*) AS total FROM memory_user_observations WHERE scope = ?")
        .get(scope) as { total: number };
      return { observations: rows.map(observationFromRow), total };
    });
  }

  clearUserObservations(scope: string): Promise<number> {
    return this.run(() =>
      Number(this.database.prepare("DELETE FROM memory_user_observations WHERE scope = ?").run(scope).changes),
    );
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      if (this.owned) this.database.close();
    }
    return Promise.resolve();
  }

  #index(rowid: number, text: string, scope: string): void {
    this.database
      .prepare("INSERT INTO memory_facts_fts (rowid, text, scope_key) VALUES (?, ?, ?)")
      .run(rowid, text, scopeToken(scope));
  }

  private run<T>(op: () => T): Promise<T> {
    try {
      this.assertOpen();
      return Promise.resolve(op());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs `op` in its own transaction, or in a savepoint of the one open on a shared database (all or nothing). */
  private inTransaction<T>(op: () => T): T {
    const nested = this.database.isTransaction;
    this.database.exec(nested ? "SAVEPOINT memory_write" : "BEGIN IMMEDIATE");
    try {
      const result = op();
      this.database.exec(nested ? "RELEASE memory_write" : "COMMIT");
      return result;
    } catch (error) {
      this.database.exec(nested ? "ROLLBACK TO memory_write; RELEASE memory_write" : "ROLLBACK");
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryError("store_closed", "The memory store is closed.");
  }

  private one(sql: string, params: SQLInputValue[]): Fact | undefined {
    const row = this.database.prepare(sql).get(...params) as FactRow | undefined;
    return row === undefined ? undefined : factFromRow(row);
  }

  private many(sql: string, params: SQLInputValue[]): (FactRow & { row_id: number })[] {
    return this.database.prepare(sql).all(...params) as unknown as (FactRow & { row_id: number })[];
  }
}
