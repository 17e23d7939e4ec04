import type { AgentMessage } from "@chorus/core";
import { describeError, type GatewayLogger, parseSessionKey, type TurnCommitted } from "@chorus/gateway";
import { describeUserStyle, detectStyle, type MemoryStore } from "@chorus/memory";
import { userStyleScope } from "./user-style-scope.js";

/** Observations read for the line: the newest few decide (`describeUserStyle` reads at most 20). */
const READ_LIMIT = 20;

/** Past this, a turn goes without the line rather than wait for the store (default; `recall.budgetMs` when set). */
export const DEFAULT_STYLE_READ_BUDGET_MS = 50;

/** What the user model needs of the gateway, given when it starts. */
export interface UserStyleDeps {
  readonly logger: GatewayLogger;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  readonly now: () => number;
  /** Whether memory is on in the session (`/memory off` stops the user model there too). */
  enabled(sessionKey: string): Promise<boolean>;
}

/** What `/memory style` may do: about the person who asks, never anyone else. */
export interface UserStyleCommands {
  /** The asker's scope in this session (undefined: a sub-agent's session). */
  scopeOf(sessionKey: string, senderId: string): string | undefined;
  /** The asker's line and how many observations are kept. */
  describe(scope: string): Promise<{ line: string | undefined; observed: number }>;
  /** Forgets every observation of the asker; how many there were. */
  clear(scope: string): Promise<number>;
}

/**
 * The per-user model of seed 003 steps 1–2: after each turn, the style detector reads every message a person sent
 * in it and keeps one observation per message in that person's own user scope (in the background, off the reply
 * path); before a turn, the observations of the turn's sender (the last message's) become one line of the system
 * prompt. Contract: never fails or blocks a turn — a failing write is logged, a slow or failing read leaves the line
 * out (logged); nothing is observed or added while `/memory off` holds in the session.
 */
export class UserStyleModel implements UserStyleCommands {
  readonly #store: MemoryStore;
  readonly #personOf: ((channel: string, peerId: string) => string) | undefined;
  readonly #budgetMs: number;
  #deps: UserStyleDeps | undefined;
  /** Each session's observations still being written: its next turn's read waits for them (within the budget). */
  readonly #writing = new Map<string, Promise<void>>();

  constructor(options: {
    store: MemoryStore;
    personOf?: (channel: string, peerId: string) => string;
    budgetMs?: number;
  }) {
    this.#store = options.store;
    this.#personOf = options.personOf;
    this.#budgetMs = options.budgetMs ?? DEFAULT_STYLE_READ_BUDGET_MS;
  }

  start(deps: UserStyleDeps): void {
    this.#deps = deps;
  }

  scopeOf(sessionKey: string, senderId: string | undefined): string | undefined {
    return userStyleScope(sessionKey, senderId, this.#personOf);
  }

  /** A turn ended: its people's messages are observed in the background. Contract: never throws. */
  turnEnded(turn: TurnCommitted): void {
    const deps = this.#deps;
    if (deps === undefined || turn.outcome === "not-started") return;
    const group = isGroup(turn.sessionKey);
    const observed = turn.items.flatMap((item) => {
      if (item.source !== "user") return [];
      const scope = this.scopeOf(turn.sessionKey, item.senderId);
      const style = detectStyle(messageText(item.message, group));
      return scope === undefined || style === undefined ? [] : [{ scope, style }];
    });
    if (observed.length === 0) return;
    const { sessionKey } = turn;
    const writing = (async () => {
      if (!(await deps.enabled(sessionKey))) return;
      const at = deps.now();
      for (const { scope, style } of observed) await this.#store.observeUser({ scope, style, at });
    })()
      .catch((error: unknown) => {
        deps.logger.warn({ sessionKey, error: describeError(error) }, "could not keep a style observation");
      })
      .finally(() => {
        if (this.#writing.get(sessionKey) === writing) this.#writing.delete(sessionKey);
      });
    this.#writing.set(sessionKey, writing);
    deps.track(writing);
  }

  /**
   * The line for a turn's system prompt about its sender, e.g. "This user prefers short, informal answers; writes in
   * German." Contract: never rejects; undefined when memory is off, the sender is unknown, too little is observed,
   * or the store is slow or fails (logged).
   */
  async lineFor(turn: { sessionKey: string; senderId?: string }): Promise<string | undefined> {
    const deps = this.#deps;
    const scope = this.scopeOf(turn.sessionKey, turn.senderId);
    if (deps === undefined || scope === undefined) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), this.#budgetMs);
    });
    try {
      const read = (async () => {
        await this.#writing.get(turn.sessionKey);
        if (!(await deps.enabled(turn.sessionKey))) return undefined;
        return (await this.describe(scope)).line;
      })();
      const line = await Promise.race([read, late]);
      if (line !== "late") return line;
      read.catch(() => undefined); // its late failure is of no one's interest now
      deps.logger.warn({ sessionKey: turn.sessionKey, budgetMs: this.#budgetMs }, "user model read skipped: too slow");
    } catch (error) {
      deps.logger.warn({ sessionKey: turn.sessionKey, error: describeError(error) }, "user model read failed");
    } finally {
      clearTimeout(timer);
    }
    return undefined;
  }

  async describe(scope: string): Promise<{ line: string | undefined; observed: number }> {
    const page = await this.#store.userObservations(scope, { limit: READ_LIMIT });
    return { line: describeUserStyle(page.observations.map((o) => o.style)), observed: page.total };
  }

  clear(scope: string): Promise<number> {
    return this.#store.clearUserObservations(scope);
  }
}

function isGroup(sessionKey: string): boolean {
  const parsed = parseSessionKey(sessionKey);
  return parsed.ok && parsed.key.kind === "group";
}

/** What a person typed: a group message's `[Name]: ` label (the gateway's, not theirs) left out. */
function messageText(message: AgentMessage, group: boolean): string {
  const m = message as { role?: string; content?: unknown };
  if (m.role !== "user") return "";
  const text =
    typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
        ? (m.content as { type?: string; text?: string }[])
            .flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : []))
            .join("\n")
        : "";
  return group ? text.replace(/^\[[^\]\n]*\]: /, "") : text;
}
