/** Discord's epoch (2015-01-01T00:00:00Z), the zero of snowflake timestamps. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/**
 * When a Discord object was created, read from its snowflake id (the top 42 bits are milliseconds since
 * Discord's epoch). Lets the channel know a message's age even when the caller only kept its id.
 * Contract: returns undefined for anything that is not a decimal snowflake.
 */
export function snowflakeCreatedAt(id: string): number | undefined {
  if (!/^\d{15,20}$/.test(id)) return undefined;
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/** Contract: a snowflake id for the given epoch milliseconds (the low 22 bits zero); for tests and tools. */
export function snowflakeAt(epochMs: number): string {
  return ((BigInt(Math.floor(epochMs)) - DISCORD_EPOCH_MS) << 22n).toString();
}
