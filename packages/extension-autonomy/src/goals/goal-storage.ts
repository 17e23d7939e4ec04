import type { SessionStore, StoredJson } from "@chorus/store";
import { GOAL_SETTINGS_KEY, type GoalRecord, goalOf } from "./goal-record.js";

/** A change to a session's goal: the new record, undefined for Idle, or `unchanged` to write nothing. */
export type GoalChange = GoalRecord | undefined | typeof UNCHANGED;

/** Returned by a change function that writes nothing. */
export const UNCHANGED: unique symbol = Symbol("unchanged");

/**
 * Reads and writes goals in session settings, one key (`goal`) among the others. Settings are replaced as a whole by
 * `updateSession`, so every write reads the record and writes it back in one transaction, merging: other settings
 * written meanwhile are kept. Writes to one session are also chained here, so two of ours never interleave.
 * Contract: `update` resolves with the goal as stored after it (undefined: Idle, or no such session).
 */
export class GoalStorage {
  readonly #store: SessionStore;
  readonly #chains = new Map<string, Promise<unknown>>();

  constructor(store: SessionStore) {
    this.#store = store;
  }

  async read(sessionKey: string): Promise<GoalRecord | undefined> {
    const session = await this.#store.getSession(sessionKey);
    return session === undefined ? undefined : goalOf(session.settings);
  }

  /** Applies `change` to the stored goal. Contract: rejects with the store's error; the chain goes on either way. */
  update(sessionKey: string, change: (goal: GoalRecord | undefined) => GoalChange): Promise<GoalRecord | undefined> {
    const previous = this.#chains.get(sessionKey) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.#write(sessionKey, change));
    this.#chains.set(sessionKey, next);
    void next
      .finally(() => {
        if (this.#chains.get(sessionKey) === next) this.#chains.delete(sessionKey);
      })
      .catch(() => {});
    return next;
  }

  #write(sessionKey: string, change: (goal: GoalRecord | undefined) => GoalChange): Promise<GoalRecord | undefined> {
    return this.#store.transaction(async (tx) => {
      const session = await tx.getSession(sessionKey);
      if (session === undefined) return undefined;
      const current = goalOf(session.settings);
      const next = change(current);
      if (next === UNCHANGED) return current;
      const { [GOAL_SETTINGS_KEY]: _old, ...others } = session.settings;
      const settings: Record<string, StoredJson> =
        next === undefined ? others : { ...others, [GOAL_SETTINGS_KEY]: next as unknown as StoredJson };
      await tx.updateSession(sessionKey, { settings });
      return next;
    });
  }
}
