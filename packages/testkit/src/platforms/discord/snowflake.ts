const DISCORD_EPOCH = 1_420_070_400_000n;

/**
 * Generates Discord snowflakes: timestamp since the Discord epoch in the high bits, an increment below.
 * Contract: ids from one generator are unique and increase in creation order.
 */
export class SnowflakeGenerator {
  #increment = 0n;
  #last = 0n;

  next(): string {
    let stamp = BigInt(Date.now()) - DISCORD_EPOCH;
    if (stamp < this.#last) stamp = this.#last;
    if (stamp === this.#last) this.#increment += 1n;
    else this.#increment = 0n;
    if (this.#increment >= 4096n) {
      stamp += 1n;
      this.#increment = 0n;
    }
    this.#last = stamp;
    return ((stamp << 22n) | this.#increment).toString();
  }
}

/** ISO timestamp of a snowflake, as Discord puts in `timestamp`. */
export function snowflakeTime(id: string): string {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH)).toISOString();
}
