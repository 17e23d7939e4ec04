import type { Pool, PoolClient, QueryConfig, QueryResult } from "pg";
import { isConnectionFailure } from "../postgres-errors.js";
import { queryFor } from "../prepared-statements.js";

/** One statement of a batch: its text and values, as `Db.query` takes them. */
export interface BatchStatement {
  readonly text: string;
  readonly values: readonly unknown[] | undefined;
}

/** How a batch ended on the server. */
export type BatchOutcome =
  /** COMMIT went through: every statement's writes are durable. */
  | { readonly kind: "committed"; readonly results: readonly QueryResult[] }
  /** A statement failed (`failed`, when it was one of `statements`), so the transaction rolled back: nothing written. */
  | { readonly kind: "rolled-back"; readonly error: unknown; readonly failed?: BatchStatement }
  /** No connection could be had: nothing was sent. */
  | { readonly kind: "unsent"; readonly error: unknown }
  /** The connection failed on the way: whether COMMIT went through is unknown (all of it or none of it). */
  | { readonly kind: "unknown"; readonly error: unknown };

// Sent with the extended protocol like the statements between them, each with its own Sync.
const BEGIN: QueryConfig = { text: "BEGIN", queryMode: "extended" } as QueryConfig;
const COMMIT: QueryConfig = { text: "COMMIT", queryMode: "extended" } as QueryConfig;

/**
 * Sends `BEGIN`, the statements and `COMMIT` on one connection of `pool` (a pool of `pipeline: true` clients) without
 * waiting between them — one network round trip, one transaction, one WAL flush — and reads every answer.
 * Contract: never throws; a failed statement makes the server skip the rest (it answers "transaction is aborted")
 * and turns COMMIT into a rollback, so the outcome is all or nothing. A connection that broke is destroyed, never
 * handed to the next batch.
 */
export async function sendPipelinedTransaction(
  pool: Pool,
  statements: readonly BatchStatement[],
): Promise<BatchOutcome> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return { kind: "unsent", error };
  }
  let broken: Error | undefined;
  // As in `inTransaction`: a reset between two answers must not be an uncaught "error" event.
  const onError = (error: Error): void => {
    broken ??= error;
  };
  client.on("error", onError);
  try {
    const begun = client.query(BEGIN);
    const sent = statements.map((statement) => client.query(queryFor(statement.text, statement.values)));
    const committed = client.query(COMMIT);
    const [begin, commit, ...answers] = await Promise.allSettled([begun, committed, ...sent]);
    const all = [begin, ...answers, commit] as PromiseSettledResult<QueryResult>[];
    // Without BEGIN the statements ran (or not) each on its own: what was written is unknown to this batch.
    const lost =
      begin?.status === "rejected"
        ? begin
        : all.find((answer) => answer.status === "rejected" && isConnectionFailure(answer.reason));
    if (lost !== undefined || broken !== undefined) {
      const error = lost?.status === "rejected" ? lost.reason : broken;
      broken ??= error instanceof Error ? error : new Error(String(error));
      return { kind: "unknown", error };
    }
    const failedAt = answers.findIndex((answer) => answer.status === "rejected");
    const failed = failedAt >= 0 ? answers[failedAt] : all.find((answer) => answer.status === "rejected");
    if (failed?.status === "rejected") {
      const statement = statements[failedAt];
      return { kind: "rolled-back", error: failed.reason, ...(statement === undefined ? {} : { failed: statement }) };
    }
    // An aborted transaction's COMMIT answers ROLLBACK without an error; here every statement succeeded.
    if (commit?.status !== "fulfilled" || commit.value.command !== "COMMIT") {
      return { kind: "rolled-back", error: new Error("The batch's COMMIT rolled back.") };
    }
    return {
      kind: "committed",
      results: answers.map((answer) => (answer as PromiseFulfilledResult<QueryResult>).value),
    };
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}
