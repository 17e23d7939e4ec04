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
import type { PgPoolLike, PgQueryable } from "./pg-queryable.js";
import { checkSchemaName, ensurePostgresMemorySchema } from "./postgres-memory-schema.js";

/** How to open a `PostgresMemoryStore`. */
export interface PostgresMemoryStoreOptions {
  /** A `pg.Pool` (the caller owns it: `close` does not end it). */
  readonly pool: PgPoolLike;
  /** The schema of the tables (created when missing). Default `chorus_memory`. */
  readonly schema?: string;
  readonly maxFactChars?: number;
  /** How many recall misses the log keeps per agent (default `MAX_MEMORY_MISSES`). */
  readonly maxMisses?: number;
  readonly now?: () => number;
}

/**
 * Long-term memory in PostgreSQL: facts in a table with a generated `tsvector` (English stemming) ranked by
 * `ts_rank`. Each write is one transaction, serialised per scope by an advisory lock. Build with `open`.
 */
export class PostgresMemoryStore implements MemoryStore {
  private readonly pool: PgPoolLike;
  private readonly table: string;
  private readonly missTable: string;
  private readonly observationTable: string;
  private readonly armTable: string;
  private readonly maxFactChars: number;
  private readonly maxMisses: number;
  private readonly now: () => number;
  private closed = false;

  private constructor(options: PostgresMemoryStoreOptions, schema: string) {
    this.pool = options.pool;
    this.table = `${schema}.memory_facts`;
    this.missTable = `${schema}.memory_misses`;
    this.observationTable = `${schema}.memory_user_observations`;
    this.armTable = `${schema}.skill_arms`;
    this.maxMisses = checkMaxMisses(options.maxMisses, MAX_MEMORY_MISSES);
    this.maxFactChars = options.maxFactChars ?? MAX_FACT_CHARS;
    this.now = options.now ?? Date.now;
  }

  /** Opens the store, creating its schema and table when missing. */
  static async open(options: PostgresMemoryStoreOptions): Promise<PostgresMemoryStore> {
    const schema = checkSchemaName(options.schema ?? "chorus_memory");
    await ensurePostgresMemorySchema(options.pool, schema);
    return new PostgresMemoryStore(options, schema);
  }

  remember(input: NewFact): Promise<RememberResult> {
    return this.inTransaction(input.scope, (db) => this.rememberOn(db, input));
  }

  /**
   * `remember` on a client inside the caller's own transaction (e.g. a session store's turn commit): the scope's
   * advisory lock is taken on it, held until that transaction ends. Contract: `db` must be in a transaction.
   */
  async rememberOn(db: PgQueryable, input: NewFact): Promise<RememberResult> {
    this.assertOpen();
    const { fact: checked, norm } = checkNewFact(input, this.maxFactChars);
    await lockScope(db, input.scope);
    const { subject } = checked;
    const sameText = await this.one(db, `SELECT * FROM ${this.table} WHERE scope = $1 AND norm = $2`, [
      input.scope,
      norm,
    ]);
    const sameSubject =
      subject === undefined
        ? undefined
        : await this.one(db, `SELECT * FROM ${this.table} WHERE scope = $1 AND subject = $2`, [input.scope, subject]);
    const plan = planRemember(checked, sameText, sameSubject, this.now());
    const fact = plan.fact;
    if (plan.kind === "added") {
      await db.query(
        `INSERT INTO ${this.table} (${FACT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        factValues(fact, norm),
      );
    } else if (plan.kind === "merged") {
      await db.query(`UPDATE ${this.table} SET updated_at = $1, subject = $2 WHERE id = $3`, [
        fact.updatedAt,
        fact.subject ?? null,
        fact.id,
      ]);
    } else {
      await db.query(
        `UPDATE ${this.table} SET text = $1, norm = $2, source_session = $3, source_message = $4, source_at = $5,
           updated_at = $6, history = $7, embedding = NULL WHERE id = $8`,
        [
          fact.text,
          norm,
          fact.source.sessionKey,
          fact.source.messageId ?? null,
          fact.source.at,
          fact.updatedAt,
          JSON.stringify(fact.history),
          fact.id,
        ],
      );
    }
    return plan;
  }

  forget(scope: string, target: string): Promise<Fact[]> {
    return this.inTransaction(scope, async (db) => {
      const needle = target.trim();
      if (needle === "") return [];
      if (isFactId(needle)) {
        const { rows } = await db.query(`DELETE FROM ${this.table} WHERE scope = $1 AND id = $2 RETURNING *`, [
          scope,
          needle,
        ]);
        if (rows.length > 0) return rows.map(factFromRow);
      }
      // Words are matched here, as in every store; the scope's rows are locked while they are read and deleted.
      const scoped = await db.query(`SELECT id, text FROM ${this.table} WHERE scope = $1 FOR UPDATE`, [scope]);
      const ids = scoped.rows.filter((row) => holdsWords(String(row.text), needle)).map((row) => String(row.id));
      if (ids.length === 0) return [];
      const { rows } = await db.query(`DELETE FROM ${this.table} WHERE scope = $1 AND id = ANY($2) RETURNING *`, [
        scope,
        ids,
      ]);
      return rows.map(factFromRow);
    });
  }

  async forgettable(scope: string, target: string): Promise<Fact[]> {
    this.assertOpen();
    const needle = target.trim();
    if (needle === "") return [];
    if (isFactId(needle)) {
      const byId = await this.get(scope, needle);
      if (byId !== undefined) return [byId];
    }
    const { rows } = await this.pool.query(`SELECT * FROM ${this.table} WHERE scope = $1`, [scope]);
    return rows.map(factFromRow).filter((fact) => holdsWords(fact.text, needle));
  }

  async get(scope: string, id: string): Promise<Fact | undefined> {
    this.assertOpen();
    return this.one(this.pool, `SELECT * FROM ${this.table} WHERE scope = $1 AND id = $2`, [scope, id]);
  }

  async getMany(ids: readonly string[]): Promise<Fact[]> {
    this.assertOpen();
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query(`SELECT * FROM ${this.table} WHERE id = ANY($1)`, [[...ids]]);
    return rows.map(factFromRow);
  }

  async list(scope: string, page: { limit?: number; offset?: number } = {}): Promise<FactPage> {
    this.assertOpen();
    const limit = pageLimit(page.limit);
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const { rows } = await this.pool.query(
      `SELECT * FROM ${this.table} WHERE scope = $1 ORDER BY updated_at DESC, seq DESC LIMIT $2 OFFSET $3`,
      [scope, limit, offset],
    );
    const counted = await this.pool.query(`SELECT count(*)::int AS total FROM ${this.table} WHERE scope = $1`, [scope]);
    return { facts: rows.map(factFromRow), total: counted.rows[0].total as number, offset };
  }

  async search(scopes: readonly string[], query: string, options: { limit?: number } = {}): Promise<FactHit[]> {
    this.assertOpen();
    const terms = searchTerms(query);
    if (terms.length === 0 || scopes.length === 0) return [];
    const tsquery = terms.map((term) => `'${term}'`).join(" | ");
    const { rows } = await this.pool.query(
      `SELECT f.*, ts_rank(f.tsv, q) AS rank FROM ${this.table} f, to_tsquery('english', $1) q
        WHERE f.tsv @@ q AND f.scope = ANY($2)
        ORDER BY rank DESC, f.updated_at DESC LIMIT $3`,
      [tsquery, [...scopes], pageLimit(options.limit)],
    );
    return rows.map((row: FactRow & { rank: number }) => ({ fact: factFromRow(row), score: Number(row.rank) }));
  }

  async export(scope: string): Promise<MemoryExport> {
    this.assertOpen();
    const { rows } = await this.pool.query(`SELECT * FROM ${this.table} WHERE scope = $1 ORDER BY created_at, seq`, [
      scope,
    ]);
    return { format: "chorus-memory-export", version: 1, scope, exportedAt: this.now(), facts: rows.map(factFromRow) };
  }

  async countByScope(): Promise<ScopeCount[]> {
    this.assertOpen();
    const { rows } = await this.pool.query(
      `SELECT scope, count(*)::int AS count FROM ${this.table} GROUP BY scope ORDER BY count DESC, scope`,
    );
    return rows as ScopeCount[];
  }

  async setEmbedding(id: string, vector: Float32Array): Promise<void> {
    this.assertOpen();
    await this.pool.query(`UPDATE ${this.table} SET embedding = $1 WHERE id = $2`, [Array.from(vector), id]);
  }

  async embeddings(scopes: readonly string[]): Promise<FactVector[]> {
    this.assertOpen();
    if (scopes.length === 0) return [];
    const { rows } = await this.pool.query(
      `SELECT id, embedding FROM ${this.table} WHERE scope = ANY($1) AND embedding IS NOT NULL`,
      [[...scopes]],
    );
    return rows.map((row: { id: string; embedding: number[] }) => ({
      id: row.id,
      vector: Float32Array.from(row.embedding),
    }));
  }

  async recordMiss(miss: NewMemoryMiss): Promise<void> {
    this.assertOpen();
    await this.pool.query(
      `INSERT INTO ${this.missTable} (${MISS_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      missValues(miss),
    );
    // The newest `maxMisses` of the agent stay. Two instances inserting at once may leave one extra until the next
    // insert: the bound is kept within a row, without a lock on the hot path.
    await this.pool.query(
      `DELETE FROM ${this.missTable} WHERE agent_id = $1 AND seq <= (
         SELECT seq FROM ${this.missTable} WHERE agent_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
      [miss.agentId, this.maxMisses],
    );
  }

  async misses(agentId: string, page: { limit?: number } = {}): Promise<MemoryMissPage> {
    this.assertOpen();
    const { rows } = await this.pool.query(
      `SELECT * FROM ${this.missTable} WHERE agent_id = $1 ORDER BY seq DESC LIMIT $2`,
      [agentId, pageLimit(page.limit)],
    );
    const counted = await this.pool.query(`SELECT count(*)::int AS total FROM ${this.missTable} WHERE agent_id = $1`, [
      agentId,
    ]);
    return { misses: (rows as MissRow[]).map(missFromRow), total: counted.rows[0].total as number };
  }

  async skillArms(agentId: string): Promise<SkillArmRecord[]> {
    this.assertOpen();
    const { rows } = await this.pool.query(
      `SELECT skill, alpha, beta FROM ${this.armTable} WHERE agent_id = $1 ORDER BY skill`,
      [agentId],
    );
    return (rows as { skill: string; alpha: number; beta: number }[]).map(skillArmFromRow);
  }

  async creditSkillArm(agentId: string, skill: string, credit: SkillArmCredit): Promise<void> {
    this.assertOpen();
    const [alpha, beta] = creditIncrements(credit);
    await this.pool.query(
      `INSERT INTO ${this.armTable} AS arm (agent_id, skill, alpha, beta, updated_at) VALUES ($1, $2, 1 + $3, 1 + $4, $5)
       ON CONFLICT (agent_id, skill) DO UPDATE SET alpha = arm.alpha + $3, beta = arm.beta + $4,
         updated_at = excluded.updated_at`,
      [agentId, skill, alpha, beta, this.now()],
    );
  }

  async observeUser(observation: NewUserObservation): Promise<void> {
    this.assertOpen();
    const table = this.observationTable;
    await this.pool.query(
      `INSERT INTO ${table} (scope, style, at) VALUES ($1, $2, $3)`,
      observationValues(observation),
    );
    // Like the miss log: two instances inserting at once may leave one extra until the next insert.
    await this.pool.query(
      `DELETE FROM ${table} WHERE scope = $1 AND seq <= (
         SELECT seq FROM ${table} WHERE scope = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
      [observation.scope, MAX_USER_OBSERVATIONS],
    );
  }

  async userObservations(scope: string, page: { limit?: number } = {}): Promise<UserObservationPage> {
    this.assertOpen();
    const table = this.observationTable;
    const { rows } = await this.pool.query(`SELECT * FROM ${table} WHERE scope = $1 ORDER BY seq DESC LIMIT $2`, [
      scope,
      pageLimit(page.limit),
    ]);
    const counted = await this.pool.query(`SELECT count(*)::int AS total FROM ${table} WHERE scope = $1`, [scope]);
    return { observations: (rows as ObservationRow[]).map(observationFromRow), total: counted.rows[0].total as number };
  }

  async clearUserObservations(scope: string): Promise<number> {
    this.assertOpen();
    const table = this.observationTable;
    const { rows } = await this.pool.query(`DELETE FROM ${table} WHERE scope = $1 RETURNING seq`, [scope]);
    return rows.length;
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  private async inTransaction<T>(scope: string, op: (db: PgQueryable) => Promise<T>): Promise<T> {
    this.assertOpen();
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await lockScope(client, scope);
      const result = await op(client);
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      client.release();
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryError("store_closed", "The memory store is closed.");
  }

  private async one(db: PgQueryable, sql: string, params: unknown[]): Promise<Fact | undefined> {
    const { rows } = await db.query(sql, params);
    return rows[0] === undefined ? undefined : factFromRow(rows[0] as FactRow);
  }
}

/** Serialises writes to one scope until the transaction ends (re-entrant: a second lock in it returns at once). */
async function lockScope(db: PgQueryable, scope: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`chorus_memory:${scope}`]);
}
