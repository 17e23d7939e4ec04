/**
 * A counter of running sub-agents. One instance is shared process-wide by default so that
 * `maxConcurrentSubagents` bounds the whole process, not each agent.
 */
export class SubagentSlots {
  private running = 0;

  /** Takes a slot if fewer than `max` are in use. Contract: returns false instead of waiting. */
  tryAcquire(max: number): boolean {
    if (this.running >= max) return false;
    this.running++;
    return true;
  }

  /** Gives a slot back. Contract: call exactly once per successful tryAcquire. */
  release(): void {
    this.running = Math.max(0, this.running - 1);
  }

  /** Slots in use now. */
  get inUse(): number {
    return this.running;
  }
}

/** The process-wide slots every Subagents instance uses unless given its own. */
export const processSubagentSlots = new SubagentSlots();
