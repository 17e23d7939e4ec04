import { queryOnce } from "@chorus/store-postgres/testing";

/**
 * Transactions the server committed or rolled back in `database` so far (`pg_stat_database`). Each statement the store
 * sends outside `BEGIN` is its own transaction, so for the store's single-statement hot path this counts its round
 * trips; a `BEGIN … COMMIT` block counts once however many statements it holds (a lower bound there). Background work
 * (lease beats, sweeps) counts too, which is why the suite subtracts an idle baseline. The server publishes these counters with a delay of up to a second
 * (PostgreSQL 15+ flushes backend statistics at most once a second): read them after a pause.
 */
export async function serverTransactions(adminUrl: string, database: string): Promise<number> {
  const { rows } = await queryOnce(
    adminUrl,
    "SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = $1",
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}
