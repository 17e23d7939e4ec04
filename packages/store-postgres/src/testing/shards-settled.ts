import { queryOnce } from "./scratch-database.js";

/**
 * Waits until exactly `owners` live cluster instances hold every shard lease of the database at `url` between them
 * (an instance that joins gets its share at the others' next beats).
 * Contract: polls every 200 ms; rejects after `timeoutMs` (default 30 s) saying what it saw last.
 * @example
 * await waitForShardsSettled(database.url, 3); // three instances, no shard free or expired
 */
export async function waitForShardsSettled(url: string, owners: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = "nothing yet";
  while (Date.now() < deadline) {
    const { rows } = await queryOnce(
      url,
      `SELECT count(DISTINCT owner)::int AS owners,
              count(*) FILTER (WHERE owner IS NULL OR expires_at < chorus_now_ms())::int AS free
         FROM shard_leases`,
    );
    if (rows[0]?.owners === owners && rows[0]?.free === 0) return;
    seen = `${rows[0]?.owners} owner(s), ${rows[0]?.free} shard(s) free`;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the shards did not settle over ${owners} instance(s) within ${timeoutMs} ms (${seen})`);
}
