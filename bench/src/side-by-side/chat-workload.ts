import { nextMessageKey, type ReplyLedger } from "./reply-ledger.js";

/** The traffic of one run: DM chats, each sending its next message once the previous one was answered. */
export interface ChatWorkload {
  readonly chats: number;
  readonly messagesPerChat: number;
  /** Messages injected and not yet answered, at most, over all chats. */
  readonly maxOutstanding: number;
  /** Chat numbers used are `firstChat … firstChat + chats - 1` (warm-up and timed runs use different chats). */
  readonly firstChat: number;
  /** How long one reply may take before it is counted lost (the chat goes on with its next message). */
  readonly replyTimeoutMs: number;
}

/** What one run measured. */
export interface WorkloadTiming {
  /** Injection → reply arriving at the fake, ms, sorted, one per answered message. */
  readonly latencies: readonly number[];
  /** `performance.now()` of the first injection and of the last reply. */
  readonly startedAt: number;
  readonly endedAt: number;
}

/** How a workload reaches the bot: inject `text` into chat number `chat`; `expectedReply` is the full answer. */
export interface WorkloadTarget {
  inject(chat: number, text: string): Promise<void>;
  expectedReply(text: string, key: string): string;
}

/**
 * Plays the workload: every chat loops over its messages, each waiting for a free slot (FIFO, `maxOutstanding` of
 * them) before injecting and holding it until the reply arrives or times out.
 * Contract: resolves when every message was answered or timed out; the ledger holds the counts.
 */
export async function playChatWorkload(
  workload: ChatWorkload,
  target: WorkloadTarget,
  ledger: ReplyLedger,
): Promise<WorkloadTiming> {
  const slots = new FifoSlots(workload.maxOutstanding);
  const latencies: number[] = [];
  const startedAt = performance.now();
  let endedAt = startedAt;
  const chat = async (index: number): Promise<void> => {
    for (let n = 0; n < workload.messagesPerChat; n++) {
      await slots.acquire();
      try {
        const key = nextMessageKey();
        const text = `hello ${key}`;
        const reply = ledger.expect(key, target.expectedReply(text, key), workload.replyTimeoutMs);
        await withinMs(
          target.inject(workload.firstChat + index, text),
          workload.replyTimeoutMs,
          `the platform's delivery of ${key} to the bot was not answered within ${workload.replyTimeoutMs} ms`,
        );
        const latency = await reply;
        if (latency !== undefined) {
          latencies.push(latency);
          endedAt = Math.max(endedAt, performance.now());
        }
      } finally {
        slots.release();
      }
    }
  };
  await Promise.all(Array.from({ length: workload.chats }, (_, index) => chat(index)));
  latencies.sort((a, b) => a - b);
  return { latencies, startedAt, endedAt };
}

/** `promise`, or a rejection with `message` after `ms`. */
async function withinMs<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A counting semaphore that hands slots out in arrival order. */
class FifoSlots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  }
}
