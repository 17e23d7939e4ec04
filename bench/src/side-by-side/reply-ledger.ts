/** One message the bot sent to the fake platform, as the fake received it. */
export interface OutboundMessage {
  /** `new`: a message posted (sendMessage, chat.postMessage); `edit`: an existing one changed (editMessageText, chat.update). */
  readonly kind: "new" | "edit";
  readonly text: string;
  /** `performance.now()` when the fake received it. */
  readonly at: number;
}

/** Counts of one run, per inbound message. */
export interface LedgerCounts {
  readonly injected: number;
  /** Inbound messages whose complete reply arrived. */
  readonly replies: number;
  /** New messages beyond the first one for the same inbound (edits of that message are not duplicates). */
  readonly duplicates: number;
  /** Inbound messages with no complete reply. */
  readonly losses: number;
  /** Outbound messages naming no key of this run (late messages of an earlier run, or noise). */
  readonly strays: number;
}

interface Entry {
  readonly expected: string;
  readonly injectedAt: number;
  repliedAt: number | undefined;
  newMessages: number;
  settle: ((latencyMs: number | undefined) => void) | undefined;
}

const KEY = /bench\d+x/g;
const UNESCAPE = /\\(.)/g;

/**
 * Matches the bot's outbound messages to the inbound messages they answer, by the unique key every inbound text
 * carries and every reply repeats. A reply is the first message or edit, for that key, whose text contains the whole
 * expected answer (so a placeholder that is edited into the answer later counts when the edit arrives); a second new
 * message carrying the key is a duplicate; an inbound without a complete reply is a loss.
 * Contract: `expect` resolves with the latency in ms, or `undefined` after `timeoutMs` (a loss, unless it arrives later).
 */
export class ReplyLedger {
  readonly #entries = new Map<string, Entry>();
  #strays = 0;

  expect(key: string, expected: string, timeoutMs: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        entry.settle = undefined;
        resolve(undefined);
      }, timeoutMs);
      const entry: Entry = {
        expected,
        injectedAt: performance.now(),
        repliedAt: undefined,
        newMessages: 0,
        settle: (latency) => {
          clearTimeout(timer);
          entry.settle = undefined;
          resolve(latency);
        },
      };
      this.#entries.set(key, entry);
    });
  }

  observe(message: OutboundMessage): void {
    const keys = new Set(message.text.match(KEY) ?? []);
    let matched = false;
    for (const key of keys) {
      const entry = this.#entries.get(key);
      if (entry === undefined) continue;
      matched = true;
      if (message.kind === "new") entry.newMessages += 1;
      if (entry.repliedAt === undefined && message.text.replace(UNESCAPE, "$1").includes(entry.expected)) {
        entry.repliedAt = message.at;
        entry.settle?.(message.at - entry.injectedAt);
      }
    }
    if (!matched) this.#strays += 1;
  }

  counts(): LedgerCounts {
    let replies = 0;
    let duplicates = 0;
    for (const entry of this.#entries.values()) {
      if (entry.repliedAt !== undefined) replies += 1;
      duplicates += Math.max(0, entry.newMessages - 1);
    }
    const injected = this.#entries.size;
    return { injected, replies, duplicates, losses: injected - replies, strays: this.#strays };
  }
}

let keyCounter = 0;

/** A key no other message of this bench process carries: `bench<n>x`. */
export function nextMessageKey(): string {
  keyCounter += 1;
  return `bench${keyCounter}x`;
}
