import type { AnyAgentTool, ToolRunInfo } from "@chorus/core";
import {
  checkFactText,
  createMemoryTools,
  type Fact,
  type FactPage,
  type MemoryExport,
  type RecallOptions,
  type RememberResult,
  recallFacts,
  renderRecallBlock,
  type ScopeCount,
  storeFactEmbeddings,
} from "@chorus/memory";
import { describeError, type GatewayLogger } from "../gateway/gateway-logger.js";
import type { LaneItem } from "../lanes/lane-item.js";
import type { TrustTier } from "../policy/trust-tier.js";
import type { SessionStore } from "../store/session-store.js";
import type { GatewayMemoryOptions } from "./gateway-memory-options.js";
import { type HeldFact, HeldFacts } from "./held-facts.js";
import { type SessionMemoryScopes, sessionMemoryScopes } from "./session-memory-scopes.js";
import { userInputText } from "./user-input-text.js";

/** The session setting `/memory off` writes. */
export const MEMORY_SETTING = "memory";

/** What the gateway's memory needs of it. */
export interface GatewayMemoryDeps {
  readonly store: SessionStore;
  readonly logger: GatewayLogger;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  readonly now: () => number;
}

/** What `/memory` may do (the command host hands it to the command). */
export interface MemoryCommands {
  /** The chat's scope for this sender's tier, or undefined when the session has no memory (sub-agents). */
  scopesOf(sessionKey: string, tier: TrustTier): SessionMemoryScopes;
  list(scope: string, page: { limit: number; offset: number }): Promise<FactPage>;
  forget(scope: string, target: string): Promise<Fact[]>;
  export(scope: string): Promise<MemoryExport>;
  counts(): Promise<ScopeCount[]>;
  /** Turns memory on or off for one session (stored in its settings). */
  setEnabled(sessionKey: string, enabled: boolean): Promise<void>;
  enabled(sessionKey: string): Promise<boolean>;
}

/**
 * Long-term memory in the gateway: the `remember`/`forget`/`recall` tools with scopes from the session key and the
 * turn's tier, recall into the system prompt before a turn's first model call, and facts written only after the turn
 * that produced them is committed. Contract: memory never fails a turn — a slow or failing recall is skipped and
 * logged, a failed fact write is logged.
 */
export class GatewayMemory implements MemoryCommands {
  readonly #options: GatewayMemoryOptions;
  readonly #deps: GatewayMemoryDeps;
  readonly #held = new HeldFacts();
  /** Sessions with memory off (their setting, read at each turn and on `/memory off|on`). */
  readonly #off = new Set<string>();
  /** Sessions whose system prompt carries a recall block now (to drop it when the next turn recalls nothing). */
  readonly #injected = new Set<string>();
  /** Facts of a session's last turn still being written: its next turn's recall waits for them. */
  readonly #writing = new Map<string, Promise<void>>();
  /** The platform message each session's running turn answers: the source of the facts it produces. */
  readonly #sourceMessage = new Map<string, string>();
  readonly tools: readonly AnyAgentTool[];

  constructor(options: GatewayMemoryOptions, deps: GatewayMemoryDeps) {
    this.#options = options;
    this.#deps = deps;
    this.tools = createMemoryTools({
      store: options.store,
      scopes: (run) => this.#scopesOfRun(run),
      source: (run, toolCallId) => {
        const sessionKey = run.sessionId ?? "unknown";
        return { sessionKey, messageId: this.#sourceMessage.get(sessionKey) ?? toolCallId, at: deps.now() };
      },
      write: async (fact, call) => {
        checkFactText(fact.text); // refused now, so the model hears why
        this.#held.hold(fact.source.sessionKey, { toolCallId: call.toolCallId, fact });
        return { kind: "held", text: fact.text };
      },
      recall: withEmbedder(options),
    });
  }

  scopesOf(sessionKey: string, tier: TrustTier): SessionMemoryScopes {
    return sessionMemoryScopes(sessionKey, tier, this.#options.personOf);
  }

  /**
   * The system prompt of a turn with the facts recalled for its input appended as a data block. Contract: never
   * rejects; undefined keeps the agent's prompt as it is (nothing recalled now, nothing injected before).
   */
  async promptWithRecall(
    sessionKey: string,
    base: string | undefined,
    items: readonly LaneItem[],
    tier: TrustTier,
  ): Promise<string | undefined> {
    const replyTo = items.at(-1)?.replyToMessageId;
    if (replyTo === undefined) this.#sourceMessage.delete(sessionKey);
    else this.#sourceMessage.set(sessionKey, replyTo);
    let block = "";
    try {
      await this.#writing.get(sessionKey);
      if (await this.enabled(sessionKey)) {
        const scopes = this.scopesOf(sessionKey, tier).read;
        const query = userInputText(items.map((item) => item.message));
        const result = await recallFacts(this.#options.store, scopes, query, withEmbedder(this.#options));
        if (result.kind === "recalled") block = renderRecallBlock(result.facts.map((hit) => hit.fact));
        else {
          const fields = { sessionKey, tookMs: result.tookMs, reason: result.reason };
          this.#deps.logger.warn(
            result.error === undefined ? fields : { ...fields, error: describeError(result.error) },
            "memory recall skipped",
          );
        }
      }
    } catch (error) {
      this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "memory recall failed");
    }
    if (block === "") {
      if (!this.#injected.delete(sessionKey)) return undefined;
      return base ?? "";
    }
    this.#injected.add(sessionKey);
    return base === undefined || base === "" ? block : `${base}\n\n${block}`;
  }

  /**
   * After a turn's commit: writes the facts it held whose `remember` result is in the stored transcript (a commit
   * that failed leaves them unwritten). Contract: never throws; the work is tracked.
   */
  turnEnded(sessionKey: string, items: readonly LaneItem[]): void {
    const held = this.#held.take(sessionKey);
    this.#sourceMessage.delete(sessionKey);
    if (held.length === 0) return;
    const writing = this.#writeCommitted(sessionKey, items, held)
      .then((written) => this.#embed(sessionKey, written))
      .catch((error: unknown) => {
        this.#deps.logger.error({ sessionKey, error: describeError(error) }, "could not write remembered facts");
      })
      .finally(() => {
        if (this.#writing.get(sessionKey) === writing) this.#writing.delete(sessionKey);
      });
    this.#writing.set(sessionKey, writing);
    this.#deps.track(writing);
  }

  list(scope: string, page: { limit: number; offset: number }): Promise<FactPage> {
    return this.#options.store.list(scope, page);
  }

  forget(scope: string, target: string): Promise<Fact[]> {
    return this.#options.store.forget(scope, target);
  }

  export(scope: string): Promise<MemoryExport> {
    return this.#options.store.export(scope);
  }

  counts(): Promise<ScopeCount[]> {
    return this.#options.store.countByScope();
  }

  async setEnabled(sessionKey: string, enabled: boolean): Promise<void> {
    const session = await this.#deps.store.getSession(sessionKey);
    if (session !== undefined) {
      const { [MEMORY_SETTING]: _old, ...rest } = session.settings;
      await this.#deps.store.updateSession(sessionKey, {
        settings: enabled ? rest : { ...rest, [MEMORY_SETTING]: "off" },
      });
    }
    if (enabled) this.#off.delete(sessionKey);
    else this.#off.add(sessionKey);
  }

  async enabled(sessionKey: string): Promise<boolean> {
    const session = await this.#deps.store.getSession(sessionKey);
    const off = session?.settings[MEMORY_SETTING] === "off";
    if (off) this.#off.add(sessionKey);
    else this.#off.delete(sessionKey);
    return !off;
  }

  #scopesOfRun(run: ToolRunInfo): SessionMemoryScopes {
    const sessionKey = run.sessionId;
    if (sessionKey === undefined || this.#off.has(sessionKey)) return { read: [] };
    return this.scopesOf(sessionKey, (run.meta?.trustTier as TrustTier | undefined) ?? "guest");
  }

  async #writeCommitted(sessionKey: string, items: readonly LaneItem[], held: readonly HeldFact[]): Promise<Fact[]> {
    const seqs = items.flatMap((item) => {
      const seq = (item as { seq?: number }).seq;
      return seq === undefined ? [] : [seq];
    });
    const transcript = await this.#deps.store.readTranscript(
      sessionKey,
      seqs.length === 0 ? undefined : { fromSeq: Math.min(...seqs) },
    );
    const committed = new Set<string>();
    for (const { message } of transcript) {
      const m = message as { role?: string; toolCallId?: string };
      if (m.role === "toolResult" && m.toolCallId !== undefined) committed.add(m.toolCallId);
    }
    const written: Fact[] = [];
    for (const entry of held) {
      if (!committed.has(entry.toolCallId)) {
        this.#deps.logger.warn({ sessionKey }, "a remembered fact was dropped: its turn was not committed");
        continue;
      }
      const result: RememberResult = await this.#options.store.remember(entry.fact);
      if (result.kind !== "merged") written.push(result.fact);
    }
    return written;
  }

  /** Embeds freshly written facts in the background (the next turn does not wait for it). */
  #embed(sessionKey: string, facts: readonly Fact[]): void {
    const embedder = this.#options.embedder;
    if (embedder === undefined || facts.length === 0) return;
    this.#deps.track(
      storeFactEmbeddings(this.#options.store, embedder, facts).catch((error: unknown) => {
        this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "could not embed remembered facts");
      }),
    );
  }
}

function withEmbedder(options: GatewayMemoryOptions): RecallOptions {
  return {
    ...options.recall,
    ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
  };
}
