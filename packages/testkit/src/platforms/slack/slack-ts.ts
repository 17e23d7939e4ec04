/**
 * Generates Slack message timestamps (`"1700000000.000100"`).
 * Contract: strictly increasing per generator, microsecond precision, close to wall time.
 */
export class SlackTsGenerator {
  #lastMicros = 0;

  next(): string {
    const micros = Math.max(Date.now() * 1000, this.#lastMicros + 1);
    this.#lastMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, "0")}`;
  }
}
