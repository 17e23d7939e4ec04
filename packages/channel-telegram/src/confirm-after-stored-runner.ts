import type { RunnerHandle, RunnerOptions } from "@grammyjs/runner";
import type { Bot } from "grammy";
import { withAlbumStragglers } from "./album-stragglers.js";
import type { TelegramAlbums } from "./telegram-albums.js";

type RunnerModule = typeof import("@grammyjs/runner");
type Update = Parameters<Bot["handleUpdate"]>[0];

/**
 * Long polling that confirms a batch of updates to Telegram only once every update of it has been handled (the
 * gateway stored it): the next `getUpdates`, whose `offset` confirms the batch, is asked only then. grammY's `run()`
 * asks for the next batch as soon as one is handed to its sink, so a process killed -9 while storing lost the updates
 * Telegram had already dropped. Updates of a batch are still handled concurrently (one chat's in order, by the bot's
 * `sequentialize`). Contract: returns the started runner; its `stop()` ends the poll under way, waits for the batch
 * in hand and confirms what was handled (a restart hears it no more; if that last call fails, the next poller hears
 * it again and the gateway's store knows it by id). With `albums`, a batch holding album items first waits for the
 * album's items still on their way (`withAlbumStragglers`) and hands them on with it, so an album straddling two
 * `getUpdates` answers is one message whose items are all confirmed only after it was stored.
 */
export function runConfirmingAfterStored(
  runner: RunnerModule,
  bot: Bot,
  options: RunnerOptions,
  albums?: TelegramAlbums,
): RunnerHandle {
  const fetchUpdates = runner.createUpdateFetcher(bot, options);
  let initialised = false;
  // The highest update handled that no getUpdates offset confirmed yet.
  let unconfirmedUpTo: number | undefined;
  // The offset the fetcher asks with next (it confirms the updates below it), and the newest update handed on: a
  // batch that waited for the rest of an album has updates the fetcher serves again, skipped then.
  let fetcherOffset = 0;
  let seenUpTo = 0;
  const source = runner.createSource<Update>({
    supply: async (batchSize, signal) => {
      if (!initialised) {
        await bot.init();
        initialised = true;
      }
      const fetched = await fetchUpdates(batchSize, signal);
      if (unconfirmedUpTo !== undefined && unconfirmedUpTo < fetcherOffset) unconfirmedUpTo = undefined;
      const lastFetched = fetched[fetched.length - 1]?.update_id;
      if (lastFetched !== undefined) fetcherOffset = lastFetched + 1;
      const fresh = fetched.filter((update) => update.update_id > seenUpTo);
      if (albums === undefined) {
        seenUpTo = Math.max(seenUpTo, lastFetched ?? 0);
        return fresh;
      }
      // An album's items may straddle two batches: its stragglers are fetched (unconfirmed) and handled with it.
      const updates = await withAlbumStragglers(bot, fresh, albums.waitMs, signal);
      seenUpTo = Math.max(seenUpTo, updates[updates.length - 1]?.update_id ?? 0);
      albums.expectWhole(updates);
      return updates;
    },
  });
  const inHand = new Set<Update>();
  const handleOne = async (update: Update): Promise<void> => {
    inHand.add(update);
    try {
      await bot.handleUpdate(update);
      unconfirmedUpTo = Math.max(unconfirmedUpTo ?? 0, update.update_id);
    } catch (error) {
      await Promise.resolve(bot.errorHandler(error as never)).catch(() => {});
    } finally {
      inHand.delete(update);
    }
  };
  const handle = runner.createRunner(source, {
    handle: async (updates) => {
      await Promise.all(updates.map(handleOne));
      return Number.POSITIVE_INFINITY;
    },
    size: () => inHand.size,
    snapshot: () => [...inHand],
  });
  handle.start();
  return {
    ...handle,
    stop: async () => {
      await handle.stop();
      const upTo = unconfirmedUpTo;
      if (upTo === undefined) return;
      unconfirmedUpTo = undefined;
      // One update at most comes back with it, unconfirmed: the next poller gets it.
      await bot.api.getUpdates({ offset: upTo + 1, limit: 1, timeout: 0 }).catch(() => {});
    },
  };
}
