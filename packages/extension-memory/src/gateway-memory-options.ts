import type { Embedder, MemoryStore, RecallOptions } from "@chorus/memory";
import type { MemoryExtractionOptions } from "./session-extraction.js";

/** Long-term memory for the gateway's agents (`memoryExtension(options)`). */
export interface GatewayMemoryOptions {
  /** Where facts live (`SqliteMemoryStore`, `PostgresMemoryStore`). The gateway never closes it. */
  readonly store: MemoryStore;
  /**
   * A `PostgresMemoryStore` whose tables are in the session store's own database: each fact is then written inside
   * the commit of the turn that produced it. (A `SqliteMemoryStore` opened on the session store's `database` is
   * recognised by itself.) Otherwise facts are written right after that commit.
   */
  readonly inSessionDatabase?: boolean;
  /** Vector similarity for recall (and facts embedded after they are written); without it, full text alone. */
  readonly embedder?: Embedder;
  /** How recall before each turn ranks and how long it may take (default: top 5 within 50 ms). */
  readonly recall?: RecallOptions;
  /**
   * The person behind a DM peer, so one person's DMs on several platforms share one memory (identity linking).
   * Default: `<channel>:<peerId>` — each platform account its own person.
   */
  readonly personOf?: (channel: string, peerId: string) => string;
  /**
   * The end-of-session extraction pass: once a session has been quiet `idleMs` (default 5 min), and right before
   * `/new`, a cheap model (`model`, an id the gateway's `models` know) proposes durable facts from its new messages.
   * Runs in the background, never before a reply; its model calls are not counted in agents' budgets.
   */
  readonly extraction?: MemoryExtractionOptions;
  /**
   * The per-user model (seed 003 steps 1–2; default off): each person's messages are fingerprinted by a cheap style
   * detector (length, formality, language, emoji, code) into observations kept in their own user scope, and a turn's
   * system prompt gets one line about its sender ("This user prefers short, informal answers; writes in German.").
   * `/memory style` shows it (in a DM), `/memory style clear` forgets it; `/memory off` stops it in a session.
   */
  readonly userModel?: boolean;
}
