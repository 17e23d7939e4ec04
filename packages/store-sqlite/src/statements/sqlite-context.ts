import type { StatementSync } from "node:sqlite";

/** What the statements of each table work with: the connection's prepared statements and the store's clock. */
export interface SqliteContext {
  /** The cached prepared statement for `sql` (filters build a few variants; each is prepared once). */
  sql(sql: string): StatementSync;
  /**
   * A statement whose integers are read as bigints: for rows that may hold an integer past 2^53 (a schedule time
   * written by an older version), which the plain read refuses for the whole result ("Value is too large…").
   */
  sqlReadingBigInts(sql: string): StatementSync;
  /** The store's clock (epoch ms). */
  now(): number;
}
