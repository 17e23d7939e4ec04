import { queryOnce } from "@chorus/store-postgres/testing";

/**
 * Transactions the server committed or rolled back in `database` so far (`pg_stat_database`). Each statement the store
 * sends outside `BEGIN` is its own transaction, so for the store's single-statement hot path this counts its round
 * trips; a `BEGIN … COMMIT` block counts once however many statements it holds (a lower bound there). Background work
 * (lease beats, sweeps) counts too, which is why the suite subtracts an idle baseline. The server publishes these counters late (PostgreSQL 15+ flushes a
 * backend's statistics at most once a second, and up to 10 s later when the shared lock is busy): read them after a
 * pause.
 */
export async function serverTransactions(adminUrl: string, database: string): Promise<number> {
  const { rows } = await queryOnce(
    adminUrl,
    "SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = $1",
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}
