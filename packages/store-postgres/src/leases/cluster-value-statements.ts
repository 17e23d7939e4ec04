import type { Db } from "../query-runner.js";

/** Stores the proposal unless the name has a value, and returns the name's value (the stored one, or the proposal). */
const AGREE = `
  WITH proposed AS (
    INSERT INTO cluster_values (name, value, created_at) VALUES ($1, $2, chorus_now_ms())
    ON CONFLICT (name) DO NOTHING RETURNING value)
  SELECT value FROM proposed UNION ALL SELECT value FROM cluster_values WHERE name = $1`;

/**
 * The value every instance uses for `name`: the first proposal stored wins. One round trip, two when another instance
 * stored its proposal in the same moment (its row is not in this statement's snapshot: read again).
 */
export async function agreeOnValue(db: Db, name: string, proposal: string): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { rows } = await db.query<{ value: string }>(AGREE, [name, proposal]);
    const value = rows[0]?.value;
    if (value !== undefined) return value;
  }
  throw new Error(`No value for ${name} could be stored or read.`);
}
