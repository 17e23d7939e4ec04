import type { ChannelAccountOptions } from "@chorus/channel";
import { abortableSleep } from "./abortable-sleep.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { checkIdentifyBudget, SHARD_RETRY_MS } from "./identify-budget-check.js";
import type { ShardParts } from "./shard-parts.js";

/** The IDENTIFY throttler @discordjs/ws asks before each IDENTIFY of a shard (its `buildIdentifyThrottler`). */
export interface ShardIdentifyThrottler {
  waitForIdentify(shardId: number, signal: AbortSignal): Promise<void>;
}

/**
 * The IDENTIFY throttler of a shard's discord.js client: the first IDENTIFY goes at once (the shard's start took its
 * slot and checked the budget); a later one (the session lost for good while connected) waits for a slot and the
 * budget, while discord.js keeps its socket open.
 * Contract: `waitForIdentify` never rejects on a failed budget read (it warns and waits); it rejects when `signal`
 * aborts.
 */
export function shardIdentifyThrottler(
  parts: Pick<ShardParts, "shard" | "pacer" | "sessionStartLimit">,
  options: Pick<ChannelAccountOptions, "onError">,
): ShardIdentifyThrottler {
  let slotTaken = true;
  return {
    waitForIdentify: async (shardId, signal) => {
      if (slotTaken) {
        slotTaken = false;
        return;
      }
      for (;;) {
        await parts.pacer.waitForIdentify(shardId, signal);
        // A throttler that throws makes @discordjs/ws tear the shard down; Discord's REST unreachable is waited out.
        const verdict = await checkIdentifyBudget(parts, options).catch((error: unknown) => {
          options.onError?.(toDiscordChannelError(error, `shard ${shardId} identify budget`));
          return { kind: "wait", retryAfterMs: SHARD_RETRY_MS, reserve: 0 } as const;
        });
        if (verdict.kind === "identify") return;
        await abortableSleep(verdict.retryAfterMs, signal);
      }
    },
  };
}
