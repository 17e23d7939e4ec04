import type { Bot } from "grammy";
import { albumKeyOf } from "./telegram-albums.js";

type Update = Parameters<Bot["handleUpdate"]>[0];
/** grammY's AbortSignal type (its shim's), which the runner hands to a supplier. */
type GrammySignal = NonNullable<Parameters<Bot["api"]["getUpdates"]>[1]>;

/** Rounds of waiting for more album items after a batch, at most (an album has at most ten items). */
const MAX_ROUNDS = 5;

/**
 * The items of an album arrive as separate updates, and a long poll answers with whatever came first: a batch can end
 * in the middle of an album. With album items in `batch`, this waits `waitMs` and asks `getUpdates` again from the
 * batch's first update — an offset that confirms nothing more than the batch's own fetch did — for the updates that
 * came since, as long as album items keep coming (a few rounds at most). The poller then hands the whole album on
 * at once, and confirms none of it before it was stored; the updates it already has come again from its next
 * `getUpdates` and are skipped there.
 * Contract: resolves with `batch` followed by the updates that came after it, in order; never rejects (a failed look
 * or a stop ends the waiting with what it has).
 */
export async function withAlbumStragglers(
  bot: Bot,
  batch: readonly Update[],
  waitMs: number,
  signal: GrammySignal,
): Promise<Update[]> {
  const updates = [...batch];
  const first = updates[0]?.update_id;
  if (first === undefined || waitMs <= 0 || !updates.some((update) => albumKeyOf(update) !== undefined)) {
    return updates;
  }
  for (let round = 0; round < MAX_ROUNDS && !signal.aborted; round++) {
    await pause(waitMs, signal);
    if (signal.aborted) break;
    let later: Update[];
    try {
      later = await bot.api.getUpdates({ offset: first, limit: 100, timeout: 0 }, signal);
    } catch {
      break;
    }
    const last = updates[updates.length - 1]?.update_id ?? first;
    const fresh = later.filter((update) => update.update_id > last);
    updates.push(...fresh);
    if (!fresh.some((update) => albumKeyOf(update) !== undefined)) break;
  }
  return updates;
}

function pause(ms: number, signal: GrammySignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
