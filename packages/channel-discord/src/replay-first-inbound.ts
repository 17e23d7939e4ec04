/**
 * Keeps a taken-over shard's live inbound back until the messages replayed from the previous holder's session have
 * been handed on: a chat's replayed (older) messages reach the gateway before its newer live ones.
 * Contract: while holding, `pass` queues in arrival order; `release(replay)` runs `replay` (which hands the replayed
 * messages on, through `pass`), then hands on what was queued, and from then on `pass` hands on at once.
 */
export class ReplayFirstInbound {
  #held: (() => void)[] | undefined;

  /** `holding`: whether a replay is to come (a shard taken over with a saved session). */
  constructor(holding: boolean) {
    this.#held = holding ? [] : undefined;
  }

  /** Whether live inbound is being held back (the replay has not been handed on yet). */
  get holding(): boolean {
    return this.#held !== undefined;
  }

  pass(handOn: () => void): void {
    if (this.#held === undefined) handOn();
    else this.#held.push(handOn);
  }

  release(replay: () => void = () => {}): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    replay();
    for (const handOn of held) handOn();
  }
}
