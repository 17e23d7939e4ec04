import type { ChannelAccountOptions } from "@chorus/channel";
import { ChannelError } from "@chorus/channel";
import { describeWait, type IdentifyBudgetVerdict, identifyBudgetVerdict } from "./identify-budget.js";
import type { ShardParts } from "./shard-parts.js";

/** How long a shard waits before asking for the IDENTIFY budget again after asking (or connecting) failed. */
export const SHARD_RETRY_MS = 5000;

/**
 * Asks Discord for the daily IDENTIFY budget; warns (without the token) when the shard may not IDENTIFY now.
 * Contract: rejects when Discord cannot be asked; the warning is a "rate-limited" ChannelError with `retryAfterMs`.
 */
export async function checkIdentifyBudget(
  parts: Pick<ShardParts, "shard" | "sessionStartLimit">,
  options: Pick<ChannelAccountOptions, "onError">,
): Promise<IdentifyBudgetVerdict> {
  const limit = await parts.sessionStartLimit();
  const verdict = identifyBudgetVerdict(limit);
  if (verdict.kind === "identify") return verdict;
  const at = new Date(Date.now() + verdict.retryAfterMs).toISOString();
  options.onError?.(
    new ChannelError(
      "rate-limited",
      `discord shard ${parts.shard}: not identifying, the daily IDENTIFY budget is spent (${limit.remaining} of ` +
        `${limit.total} left, ${verdict.reserve} kept back: Discord resets the token beyond it); trying again in ` +
        `${describeWait(verdict.retryAfterMs)} (${at}). The other shards run on.`,
      { retryAfterMs: verdict.retryAfterMs },
    ),
  );
  return verdict;
}
