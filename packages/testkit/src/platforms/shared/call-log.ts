/** One outbound request the bot made to a fake platform server. */
export interface RecordedCall {
  /** Platform method name: `sendMessage` (Telegram), `chat.postMessage` (Slack), `createMessage` (Discord). */
  readonly method: string;
  /** HTTP verb, or `WS` for a gateway/socket frame. */
  readonly httpMethod: string;
  /** Request path without the token part (Telegram) and without the query string. */
  readonly path: string;
  /** Path parameters and query string values (Discord); empty for the other platforms. */
  readonly params: Readonly<Record<string, string>>;
  /** Parsed request body (JSON or form fields); `undefined` when there was none. */
  readonly body: unknown;
  /** Id of the bot account that made the call (never the token), `undefined` when unauthenticated. */
  readonly botId: string | undefined;
  /** HTTP status the fake answered with (101 for gateway frames); 0 while the answer is pending (long poll). */
  status: number;
  /** `Date.now()` when the fake received the call. */
  readonly at: number;
}

/** Predicate over recorded calls, used by `waitFor`. */
export type CallPredicate = (call: RecordedCall) => boolean;

interface Waiter {
  readonly predicate: CallPredicate;
  readonly resolve: (call: RecordedCall) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Thrown by `waitFor` when no matching call arrived in time or the fake closed. */
export class CallWaitError extends Error {
  override readonly name = "CallWaitError";
}

/**
 * Record of calls with waiters.
 * Contract: `record` is amortised O(1) plus O(pending waiters); `waitFor` resolves with the first
 * matching call (already recorded or future) or rejects with `CallWaitError`. Past `limit`
 * calls, the oldest half is forgotten (long benchmarks stay within memory).
 */
export class CallLog {
  readonly calls: RecordedCall[] = [];
  readonly #byMethod = new Map<string, RecordedCall[]>();
  #waiters: Waiter[] = [];
  #closed = false;

  constructor(readonly limit = Number.POSITIVE_INFINITY) {
    if (!(limit >= 2)) throw new RangeError(`call log limit must be at least 2, got ${limit}`);
  }

  record(call: RecordedCall): void {
    if (this.calls.length >= this.limit) this.#forgetOldestHalf();
    this.calls.push(call);
    let list = this.#byMethod.get(call.method);
    if (!list) {
      list = [];
      this.#byMethod.set(call.method, list);
    }
    list.push(call);
    if (this.#waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.predicate(call)) {
        clearTimeout(waiter.timer);
        waiter.resolve(call);
      } else {
        still.push(waiter);
      }
    }
    this.#waiters = still;
  }

  /** Calls of one method, in arrival order (a live view: do not mutate). */
  callsTo(method: string): readonly RecordedCall[] {
    return this.#byMethod.get(method) ?? [];
  }

  waitFor(predicate: CallPredicate, timeoutMs = 5_000): Promise<RecordedCall> {
    const found = this.calls.find(predicate);
    if (found) return Promise.resolve(found);
    if (this.#closed) return Promise.reject(new CallWaitError("fake server is closed"));
    return new Promise<RecordedCall>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w.timer !== timer);
        reject(new CallWaitError(`no matching call within ${timeoutMs} ms (${this.calls.length} calls recorded)`));
      }, timeoutMs);
      this.#waiters.push({ predicate, resolve, reject, timer });
    });
  }

  #forgetOldestHalf(): void {
    this.calls.splice(0, Math.ceil(this.calls.length / 2));
    this.#byMethod.clear();
    for (const kept of this.calls) {
      const list = this.#byMethod.get(kept.method);
      if (list) list.push(kept);
      else this.#byMethod.set(kept.method, [kept]);
    }
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new CallWaitError("fake server closed while waiting for a call"));
    }
    this.#waiters = [];
  }
}
