import type { Context, NextFunction } from "grammy";

type Update = Context["update"];

/** How long an album waits for more items after its latest one, unless told otherwise (`albumWaitMs`). */
export const ALBUM_WAIT_MS = 500;
/** An album is handed on at the latest this many quiet windows after its first item came, however many trickle in. */
const MAX_WINDOWS = 4;

/** The key of an update's album (chat and media group), or undefined for an update that is no album item. */
export function albumKeyOf(update: Update): string | undefined {
  const message = update.message;
  const group = message?.media_group_id;
  return message === undefined || group === undefined ? undefined : `${message.chat.id}:${group}`;
}

/** One album being gathered: its items so far, and what its first item's handling came to. */
class GatheringAlbum {
  readonly items: Update[];
  /** Resolves when the album was handed on (stored); rejects with the hand-over's failure. */
  readonly done: Promise<void>;
  settle!: (error?: unknown) => void;
  /** Set once its items were handed out: a later item starts an album of its own. */
  closed = false;
  #expected: number | undefined;
  #lastJoinAt: number;
  #wake: (() => void) | undefined;

  constructor(first: Update, expected: number | undefined) {
    this.items = [first];
    this.#expected = expected;
    this.#lastJoinAt = Date.now();
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // A follower that gave up (its webhook request timed out) must not make this an unhandled rejection.
    this.done.catch(() => {});
  }

  get complete(): boolean {
    return this.#expected !== undefined && this.items.length >= this.#expected;
  }

  join(update: Update): void {
    this.items.push(update);
    this.#lastJoinAt = Date.now();
    this.#wake?.();
  }

  /** Waits until every expected item is in, or no item came for `waitMs` (at most MAX_WINDOWS of them in all). */
  async gathered(waitMs: number): Promise<readonly Update[]> {
    const deadline = Date.now() + waitMs * MAX_WINDOWS;
    for (;;) {
      if (this.complete) break;
      const now = Date.now();
      const until = Math.min(this.#lastJoinAt + waitMs, deadline);
      if (until <= now) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, until - now);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
    this.closed = true;
    return [...this.items];
  }
}

/**
 * Gathers the items of Telegram albums — one update per photo, video or document sent together, sharing a
 * `media_group_id` — so the gateway hears one message with all of them. Installed before `sequentialize`: the first
 * item of an album goes on down the middleware (in its chat's order) and, in the message handler, waits for the rest
 * (`gathered`); the other items stop here and settle with it, so none of them counts as handled (a polled batch is not
 * confirmed, a webhook request not answered 200) before the merged message was handed to the sink — and a webhook item
 * that could not be stored is refused with it, so Telegram sends them all again.
 * Contract: an item arriving after its album was handed on starts an album of its own.
 */
export class TelegramAlbums {
  readonly waitMs: number;
  readonly #gathering = new Map<string, GatheringAlbum>();
  readonly #leaders = new WeakMap<Update, GatheringAlbum>();
  readonly #expected = new Map<string, number>();

  constructor(waitMs: number = ALBUM_WAIT_MS) {
    this.waitMs = waitMs;
  }

  /** grammY middleware; install it before `sequentialize`. */
  readonly middleware = async (ctx: Context, next: NextFunction): Promise<void> => {
    const key = albumKeyOf(ctx.update);
    if (key === undefined) return next();
    const open = this.#gathering.get(key);
    if (open !== undefined && !open.closed) {
      open.join(ctx.update);
      return open.done;
    }
    const album = new GatheringAlbum(ctx.update, this.#expected.get(key));
    this.#expected.delete(key);
    this.#gathering.set(key, album);
    this.#leaders.set(ctx.update, album);
    try {
      await next();
      album.settle();
    } catch (error) {
      album.settle(error);
      throw error;
    } finally {
      if (this.#gathering.get(key) === album) this.#gathering.delete(key);
    }
  };

  /**
   * In the message handler: for the first item of an album, waits for the rest and returns every item gathered (the
   * album then takes no more); for any other update, undefined.
   */
  async gather(update: Update): Promise<readonly Update[] | undefined> {
    const album = this.#leaders.get(update);
    if (album === undefined) return undefined;
    const items = await album.gathered(this.waitMs);
    const key = albumKeyOf(update);
    if (key !== undefined && this.#gathering.get(key) === album) this.#gathering.delete(key);
    return items;
  }

  /**
   * Told by the poller that `updates` hold every item of their albums that is coming (it already waited for
   * stragglers): an album is then handed on as soon as its items are in, without a wait of its own.
   */
  expectWhole(updates: readonly Update[]): void {
    // The batch before was handled to the end: what it expected is over.
    this.#expected.clear();
    for (const update of updates) {
      const key = albumKeyOf(update);
      if (key !== undefined) this.#expected.set(key, (this.#expected.get(key) ?? 0) + 1);
    }
  }
}
