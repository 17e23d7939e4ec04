/** A message taken by this instance's own intake, waiting for the stored ones before it. */
interface HeldTake {
  readonly seq: number;
  readonly take: () => void;
}

/**
 * Keeps a session's stored user messages going into its lane in seq order while this instance takes up the ones it
 * found stored and unanswered (a takeover, a wake-up, a sweep: a transcript read and other round trips): a message its
 * own intake takes meanwhile waits, and goes into the lane after them. So each message gets its own turn in order
 * (`followup`), and no turn reads a not-yet-answered message as history. (A cluster only.)
 * Contract: `take` callbacks of a session run once, lowest seq first, when its last catch-up ends.
 */
export class StoredIntakeOrder {
  readonly #catchingUp = new Map<string, { count: number; held: HeldTake[] }>();

  /** The session's stored, unanswered messages are being taken up; its intake waits until `end`. */
  begin(sessionKey: string): void {
    const state = this.#catchingUp.get(sessionKey);
    if (state === undefined) this.#catchingUp.set(sessionKey, { count: 1, held: [] });
    else state.count += 1;
  }

  /** One catch-up of the session ended (taken up or failed); the last one lets the held messages in, in seq order. */
  end(sessionKey: string): void {
    const state = this.#catchingUp.get(sessionKey);
    if (state === undefined) return;
    state.count -= 1;
    if (state.count > 0) return;
    this.#catchingUp.delete(sessionKey);
    for (const held of state.held.sort((a, b) => a.seq - b.seq)) held.take();
  }

  /** Contract: true when `take` was held (it runs at the session's catch-up end); false: run it now yourself. */
  hold(sessionKey: string, seq: number, take: () => void): boolean {
    const state = this.#catchingUp.get(sessionKey);
    if (state === undefined) return false;
    state.held.push({ seq, take });
    return true;
  }
}
