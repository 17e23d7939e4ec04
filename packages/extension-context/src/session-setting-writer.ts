import type { SessionStore, StoredJson } from "@chorus/store";

/**
 * Writes one setting of a session (a feature's kept state), one write at a time and only the latest value: each write
 * reads the settings again inside its transaction (other features change them too), so a failed write loses nothing
 * else. Contract: `write` returns at once with a promise that never rejects (`onError` hears a failure); `undefined`
 * removes the setting; after `close` nothing more is written (a session started afresh must not get its old state
 * back from a write still queued); `idle` resolves once the writes queued so far are done.
 * @example
 * const writer = new SessionSettingWriter(store, sessionKey, "focus", (error) => log.warn({ error }, "not stored"));
 * track(writer.write(state.snapshot()));
 */
export class SessionSettingWriter {
  readonly #store: Pick<SessionStore, "transaction">;
  readonly #sessionKey: string;
  readonly #name: string;
  readonly #onError: (error: unknown) => void;
  /** The value waiting for the next write (`{ value: undefined }`: remove it); undefined when none waits. */
  #latest: { value: StoredJson | undefined } | undefined;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    store: Pick<SessionStore, "transaction">,
    sessionKey: string,
    name: string,
    onError: (error: unknown) => void,
  ) {
    this.#store = store;
    this.#sessionKey = sessionKey;
    this.#name = name;
    this.#onError = onError;
  }

  /** Queues `value` (a JSON-serialisable snapshot, copied now); returns the write's promise (for the gateway's `track`). */
  write(value: unknown): Promise<void> {
    const queued = this.#latest !== undefined;
    this.#latest = { value: value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as StoredJson) };
    if (!queued) this.#chain = this.#chain.then(() => this.#flush());
    return this.#chain;
  }

  close(): void {
    this.#closed = true;
  }

  idle(): Promise<void> {
    return this.#chain;
  }

  async #flush(): Promise<void> {
    const latest = this.#latest;
    this.#latest = undefined;
    if (latest === undefined || this.#closed) return;
    try {
      await this.#store.transaction(async (tx) => {
        const session = await tx.getSession(this.#sessionKey);
        if (session === undefined || this.#closed) return;
        const settings = { ...session.settings };
        if (latest.value === undefined) delete settings[this.#name];
        else settings[this.#name] = latest.value;
        await tx.updateSession(this.#sessionKey, { settings });
      });
    } catch (error) {
      this.#onError(error);
    }
  }
}
