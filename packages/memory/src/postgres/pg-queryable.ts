/** What the memory store needs of a `pg` client: `query`. A `pg.Pool` or `pg.PoolClient` fits. */
export interface PgQueryable {
  // biome-ignore lint/suspicious/noExplicitAny: rows are whatever the query selects
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/** What the memory store needs of a `pg.Pool`: queries and a client for a transaction. */
export interface PgPoolLike extends PgQueryable {
  connect(): Promise<PgQueryable & { release(error?: Error | boolean): void }>;
}
