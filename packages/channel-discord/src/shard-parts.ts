import type { IngressLease } from "@chorus/channel";
import type { Client } from "discord.js";
import type { SessionStartLimit } from "./identify-budget.js";
import type { IdentifyPacer } from "./identify-pacer.js";
import type { ReplayFirstInbound } from "./replay-first-inbound.js";

/** What connecting one shard takes. */
export interface ShardParts {
  readonly shard: number;
  readonly shardCount: number;
  readonly rest: { globalRequestsPerSecond: number; api?: string };
  readonly pacer: IdentifyPacer;
  readonly lease: IngressLease;
  /** `session_start_limit` of `GET /gateway/bot`, asked afresh. */
  readonly sessionStartLimit: () => Promise<SessionStartLimit>;
  /** Listens for the shard client's inbound; `handedOn` hears each message id once its delivery settled. */
  readonly listen: (client: Client, inbound: ReplayFirstInbound, handedOn: (messageId: string) => void) => void;
}
