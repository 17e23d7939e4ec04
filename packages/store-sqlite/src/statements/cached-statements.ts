import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { SqliteContext } from "./sqlite-context.js";

/**
 * The `SqliteContext` of one connection: every statement is prepared on first use and kept for the connection's
 * life, so a hot operation never parses its SQL again.
 */
export class CachedStatements implements SqliteContext {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  readonly now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.db = db;
    this.now = now;
  }

  sql(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  sqlReadingBigInts(sql: string): StatementSync {
    // Its own key: the same SQL read the plain way is a different statement.
    const key = `bigints:${sql}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      statement.setReadBigInts(true);
      this.statements.set(key, statement);
    }
    return statement;
  }
}
