import type { AgentMessage } from "@chorus/core";
import type { TrustTier } from "@chorus/store";
import type { InboundTrace } from "../telemetry/inbound-trace.js";

/** One message waiting in (or passing through) a session's lane. Its message is already in the store. */
export interface LaneItem {
  readonly message: AgentMessage;
  /** The trust tier of whoever caused it; a turn runs at the lowest tier among its items. */
  readonly trust: TrustTier;
  /** `goal`: an autonomous goal's prompt — it waits for its own turn (never steered into or interrupting a run). */
  readonly source: "user" | "subagent-result" | "goal";
  /** The person to tell if the item is dropped. */
  readonly senderId?: string;
  /** The platform message it answers, for reply threading. */
  readonly replyToMessageId?: string;
  /** The inbound message's trace (spans and queue wait), when it came from a platform. */
  readonly trace?: InboundTrace;
  /** The W3C traceparent of the run this item resumes (after a restart): the turn's span links to it. */
  readonly resumes?: string;
}

/** What a lane asks of the gateway. */
export interface LaneHost {
  /**
   * Runs one turn on these items (in order). `releaseSlot` gives the turn's global slot back early: the cap bounds
   * model work, so a turn whose model work is done may release it while its results are still being persisted.
   * Contract: resolves when the turn has ended and been persisted; the lane releases the slot then if it was not yet.
   */
  runTurn(items: LaneItem[], releaseSlot: () => void): Promise<void>;
  /** Injects an item into the live run (steer mode). Contract: false when no run can take it now. */
  steer(item: LaneItem): boolean;
  /** Aborts the live run so that the queued items start next (interrupt mode). */
  interrupt(): void;
  /** An item was dropped because the queue was full: tell its sender. */
  dropped(item: LaneItem): void;
  /** The lane has nothing queued and nothing running. */
  idle(): void;
}

const TIER_RANK: Record<TrustTier, number> = { guest: 0, trusted: 1, owner: 2 };

/** The lower of two trust tiers: a turn mixing a guest's message with an owner's runs as a guest. */
export function lowerTier(a: TrustTier, b: TrustTier): TrustTier {
  return TIER_RANK[a] <= TIER_RANK[b] ? a : b;
}
