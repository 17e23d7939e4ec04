/** A failure the fake answers with instead of handling a call. */
export interface FaultSpec {
  /** Platform method name to fail (`sendMessage`, `chat.postMessage`, `createMessage`), or `*` for any. */
  readonly method: string;
  /** HTTP status to answer with, e.g. 429 or 502. */
  readonly status: number;
  /** How many matching calls fail before the fault is used up. Default 1. */
  readonly times?: number;
  /** For 429: seconds the client is told to wait (fractions allowed where the platform allows them). */
  readonly retryAfterSeconds?: number;
}

interface ActiveFault {
  readonly spec: FaultSpec;
  remaining: number;
}

/**
 * Queue of pending faults per method.
 * Contract: `take(method)` is O(1) and consumes one use of the oldest fault for that method (or `*`).
 */
export class FaultPlan {
  readonly #byMethod = new Map<string, ActiveFault[]>();
  #count = 0;

  add(spec: FaultSpec): void {
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1)
      throw new RangeError(`fault times must be a positive integer, got ${times}`);
    if (!Number.isInteger(spec.status) || spec.status < 400 || spec.status > 599) {
      throw new RangeError(`fault status must be an HTTP error status, got ${spec.status}`);
    }
    let list = this.#byMethod.get(spec.method);
    if (!list) {
      list = [];
      this.#byMethod.set(spec.method, list);
    }
    list.push({ spec, remaining: times });
    this.#count += times;
  }

  take(method: string): FaultSpec | undefined {
    if (this.#count === 0) return undefined;
    return this.#takeFrom(method) ?? this.#takeFrom("*");
  }

  clear(): void {
    this.#byMethod.clear();
    this.#count = 0;
  }

  #takeFrom(key: string): FaultSpec | undefined {
    const list = this.#byMethod.get(key);
    const head = list?.[0];
    if (!list || !head) return undefined;
    head.remaining -= 1;
    this.#count -= 1;
    if (head.remaining === 0) list.shift();
    return head.spec;
  }
}
