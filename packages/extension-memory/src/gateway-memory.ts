import type { AgentMessage, AnyAgentTool, Model, StreamFn, ToolRunInfo } from "@chorus/core";
import {
  type CommitSideWrites,
  describeError,
  type GatewayLogger,
  MEMORY_OFF_SETTING,
  type SessionStore,
  type TrustTier,
  type TurnAboutToStart,
} from "@chorus/gateway";
import {
  checkFactText,
  createMemoryTools,
  type Fact,
  type FactPage,
  MemoryError,
  type MemoryExport,
  type MemoryMissPage,
  type NewFact,
  type PgQueryable,
  PostgresMemoryStore,
  type RecallMiss,
  type RecallOptions,
  type RecallStrategy,
  type RememberResult,
  recallFacts,
  recallMissOf,
  renderRecallBlock,
  type ScopeCount,
  SqliteMemoryStore,
  storeFactEmbeddings,
} from "@chorus/memory";
import type { GatewayMemoryOptions } from "./gateway-memory-options.js";
import { HeldFacts } from "./held-facts.js";
import { logRecallMiss } from "./recall-miss-log.js";
import { SessionExtraction } from "./session-extraction.js";
import { type SessionMemoryScopes, sessionMemoryScopes } from "./session-memory-scopes.js";

/** The session setting `/memory off` writes. */
export const MEMORY_SETTING = MEMORY_OFF_SETTING.key;

/** What the gateway's memory needs of it, given when the gateway starts. */
export interface GatewayMemoryDeps {
  readonly store: SessionStore;
  readonly logger: GatewayLogger;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  readonly now: () => number;
  /** The model calls of the extraction pass (`options.extraction`). */
  readonly streamFn: StreamFn;
  findModel(id: string): Model | undefined;
}

/** What `/memory` may do (the command host hands it to the command). */
export interface MemoryCommands {
  /** The chat's scope for this sender's tier, or undefined when the session has no memory (sub-agents). */
  scopesOf(sessionKey: string, tier: TrustTier): SessionMemoryScopes;
  list(scope: string, page: { limit: number; offset: number }): Promise<FactPage>;
  forget(scope: string, target: string): Promise<Fact[]>;
  /** What `forget` would delete now, deleting nothing. */
  forgettable(scope: string, target: string): Promise<Fact[]>;
  export(scope: string): Promise<MemoryExport>;
  counts(): Promise<ScopeCount[]>;
  /** The newest recall misses of an agent (operator data: `/memory misses`, admins only). */
  misses(agentId: string, limit: number): Promise<MemoryMissPage>;
  /** Turns memory on or off for one session (stored in its settings). */
  setEnabled(sessionKey: string, enabled: boolean): Promise<void>;
  enabled(sessionKey: string): Promise<boolean>;
}

/**
 * Long-term memory in the gateway: the `remember`/`forget`/`recall` tools with scopes from the session key and the
 * turn's tier, recall into the system prompt before a turn's first model call, and facts written with the commit that
 * stores their `remember` result — inside its transaction when the memory store shares the session store's database,
 * right after it otherwise. Contract: memory never fails a turn — a slow or failing recall is skipped and
 * logged, a failed fact write is logged; every recall miss (nothing found, timed out, failed) goes to the store's miss
 * log in the background, never to the model.
 */
export class GatewayMemory implements MemoryCommands {
  readonly #options: GatewayMemoryOptions;
  #started: GatewayMemoryDeps | undefined;
  readonly #held = new HeldFacts();
  /** Sessions with memory off (their setting, read at each turn and on `/memory off|on`). */
  readonly #off = new Set<string>();
  /** Facts of a session's last turn still being written: its next turn's recall waits for them. */
  readonly #writing = new Map<string, Promise<void>>();
  /** The platform message each session's running turn answers: the source of the facts it produces. */
  readonly #sourceMessage = new Map<string, string>();
  #extraction: SessionExtraction | undefined;
  /** The tools every agent is offered (made at construction: the gateway gathers tools before it starts). */
  readonly tools: readonly AnyAgentTool[];

  constructor(options: GatewayMemoryOptions) {
    this.#options = options;
    this.tools = createMemoryTools({
      store: options.store,
      scopes: (run) => this.#scopesOfRun(run),
      source: (run, toolCallId) => {
        const sessionKey = run.sessionId ?? "unknown";
        return { sessionKey, messageId: this.#sourceMessage.get(sessionKey) ?? toolCallId, at: this.#deps.now() };
      },
      write: async (fact, call) => {
        checkFactText(fact.text); // refused now, so the model hears why
        this.#held.hold(fact.source.sessionKey, { toolCallId: call.toolCallId, fact });
        return { kind: "held", text: fact.text };
      },
      recall: withEmbedder(options),
      onMiss: (miss, run) => this.#missed(run.sessionId ?? "unknown", miss),
    });
  }

  /** The gateway started: from now on memory reads sessions, writes facts in the background and extracts. */
  start(deps: GatewayMemoryDeps): void {
    this.#started = deps;
    const extraction = this.#options.extraction;
    this.#extraction =
      extraction === undefined
        ? undefined
        : new SessionExtraction({
            options: extraction,
            store: deps.store,
            memory: this.#options.store,
            streamFn: deps.streamFn,
            findModel: (id) => deps.findModel(id),
            scopesOf: (sessionKey, tier) => this.scopesOf(sessionKey, tier),
            enabled: (sessionKey) => this.enabled(sessionKey),
            track: (work) => deps.track(work),
            logger: deps.logger,
            now: deps.now,
          });
  }

  get #deps(): GatewayMemoryDeps {
    if (this.#started === undefined) throw new Error("long-term memory is used before the gateway started");
    return this.#started;
  }

  scopesOf(sessionKey: string, tier: TrustTier): SessionMemoryScopes {
    return sessionMemoryScopes(sessionKey, tier, this.#options.personOf);
  }

  /**
   * The facts recalled for a turn's input, as a data block for its system prompt. Contract: never rejects; undefined
   * when nothing is recalled (memory off, nothing matches, a slow or failing recall — logged).
   */
  async recallFor(turn: TurnAboutToStart): Promise<string | undefined> {
    const { sessionKey } = turn;
    if (turn.replyToMessageId === undefined) this.#sourceMessage.delete(sessionKey);
    else this.#sourceMessage.set(sessionKey, turn.replyToMessageId);
    try {
      await this.#writing.get(sessionKey);
      if (!(await this.enabled(sessionKey))) return undefined;
      const scopes = this.scopesOf(sessionKey, turn.trust).read;
      const query = turn.texts.filter((text) => text !== "").join("\n");
      const result = await recallFacts(this.#options.store, scopes, query, withEmbedder(this.#options));
      const miss = recallMissOf(result, { query, scopes, strategy: strategyOf(this.#options) }, describeError);
      if (miss !== undefined) this.#missed(sessionKey, miss);
      if (result.kind === "recalled") return renderRecallBlock(result.facts.map((hit) => hit.fact)) || undefined;
      const fields = { sessionKey, tookMs: result.tookMs, reason: result.reason };
      this.#deps.logger.warn(
        result.error === undefined ? fields : { ...fields, error: describeError(result.error) },
        "memory recall skipped",
      );
    } catch (error) {
      this.#deps.logger.warn({ sessionKey, error: describeError(error) }, "memory recall failed");
    }
    return undefined;
  }

  /**
   * The tools a turn of the session is offered: without `remember`, `forget` and `recall` while memory is off there
   * (as read by the turn's recall, right before). Contract: pure apart from that read state.
   */
  toolsFor(sessionKey: string, tools: readonly AnyAgentTool[]): readonly AnyAgentTool[] {
    if (!this.#off.has(sessionKey)) return tools;
    return tools.filter((tool) => !this.tools.includes(tool));
  }

  /**
   * The facts to write with a commit of `messages`: those whose `remember` result is among them. Inside the commit's
   * transaction when the memory store lives in the session store's database; right after it otherwise; back to
   * waiting when the commit fails (its messages go into the next one). Undefined when there are none.
   */
  sideWritesFor(sessionKey: string, messages: readonly AgentMessage[]): CommitSideWrites | undefined {
    const held = this.#held.takeFor(sessionKey, toolResultIds(messages));
    if (held.length === 0) return undefined;
    const store = this.#options.store;
    const facts = held.map((entry) => entry.fact);
    let results: RememberResult[] = [];
    return {
      writes: {
        sync: (connection) => {
          if (!(store instanceof SqliteMemoryStore) || store.database !== connection) return false;
          results = [];
          for (const fact of facts) {
            try {
              results.push(store.rememberSync(fact));
            } catch (error) {
              this.#refused(sessionKey, error);
            }
          }
          return true;
        },
        onClient: async (client) => {
          if (!(store instanceof PostgresMemoryStore) || this.#options.inSessionDatabase !== true) return false;
          results = [];
          for (const fact of facts) {
            try {
              results.push(await store.rememberOn(client as PgQueryable, fact));
            } catch (error) {
              this.#refused(sessionKey, error);
            }
          }
          return true;
        },
      },
      committed: (sideWritten) => {
        this.#track(sessionKey, sideWritten ? Promise.resolve(results) : this.#writeAll(facts));
      },
      failed: () => {
        for (const entry of held) this.#held.hold(sessionKey, entry);
      },
    };
  }

  /**
   * After a turn: facts still held belong to a `remember` whose result was never committed; they are dropped. The
   * session's extraction pass (when configured) waits for it to go quiet.
   */
  turnEnded(sessionKey: string, answered: number): void {
    if (answered > 0) this.#extraction?.turnEnded(sessionKey);
    const dropped = this.#held.take(sessionKey);
    this.#sourceMessage.delete(sessionKey);
    if (dropped.length > 0) {
      this.#deps.logger.warn(
        { sessionKey, count: dropped.length },
        "remembered facts were dropped: their turn was not committed",
      );
    }
  }

  /**
   * The session starts afresh (`/new`): its extraction pass reads its messages now and runs in the background.
   * Contract: never rejects.
   */
  async sessionEnding(sessionKey: string): Promise<void> {
    await this.#extraction?.sessionEnding(sessionKey);
  }

  /** Gateway shutdown: extraction passes still waiting for a quiet session are dropped. */
  stop(): void {
    this.#extraction?.stop();
  }

  list(scope: string, page: { limit: number; offset: number }): Promise<FactPage> {
    return this.#options.store.list(scope, page);
  }

  forget(scope: string, target: string): Promise<Fact[]> {
    return this.#options.store.forget(scope, target);
  }

  forgettable(scope: string, target: string): Promise<Fact[]> {
    return this.#options.store.forgettable(scope, target);
  }

  export(scope: string): Promise<MemoryExport> {
    return this.#options.store.export(scope);
  }

  counts(): Promise<ScopeCount[]> {
    return this.#options.store.countByScope();
  }

  misses(agentId: string, limit: number): Promise<MemoryMissPage> {
    return this.#options.store.misses(agentId, { limit });
  }

  async setEnabled(sessionKey: string, enabled: boolean): Promise<void> {
    const session = await this.#deps.store.getSession(sessionKey);
    if (session !== undefined) {
      const { [MEMORY_SETTING]: _old, ...rest } = session.settings;
      await this.#deps.store.updateSession(sessionKey, {
        settings: enabled ? rest : { ...rest, [MEMORY_SETTING]: MEMORY_OFF_SETTING.value },
      });
    }
    if (enabled) this.#off.delete(sessionKey);
    else this.#off.add(sessionKey);
  }

  async enabled(sessionKey: string): Promise<boolean> {
    const session = await this.#deps.store.getSession(sessionKey);
    const off = session?.settings[MEMORY_SETTING] === MEMORY_OFF_SETTING.value;
    if (off) this.#off.add(sessionKey);
    else this.#off.delete(sessionKey);
    return !off;
  }

  /** A recall (before a turn, or the `recall` tool) found nothing or failed: logged in the background. */
  #missed(sessionKey: string, miss: RecallMiss): void {
    logRecallMiss(this.#options.store, this.#deps, sessionKey, miss);
  }

  #scopesOfRun(run: ToolRunInfo): SessionMemoryScopes {
    const sessionKey = run.sessionId;
    if (sessionKey === undefined || this.#off.has(sessionKey)) return { read: [] };
    return this.scopesOf(sessionKey, (run.meta?.trustTier as TrustTier | undefined) ?? "guest");
  }

  /**
   * A fact the memory store refused inside a turn's commit (`MemoryError`: checked before anything is written) is
   * dropped and logged, so that the turn still commits; any other error fails the commit (and is rethrown).
   */
  #refused(sessionKey: string, error: unknown): void {
    if (!(error instanceof MemoryError)) throw error;
    this.#deps.logger.warn({ sessionKey, reason: error.code }, "a remembered fact was refused by the memory store");
  }

  async #writeAll(facts: readonly NewFact[]): Promise<RememberResult[]> {
    const results: RememberResult[] = [];
    for (const fact of facts) {
      try {
        results.push(await this.#options.store.remember(fact));
      } catch (error) {
        this.#deps.logger.error(
          { sessionKey: fact.source.sessionKey, error: describeError(error) },
          "could not write a remembered fact",
        );
      }
    }
    return results;
  }

  /** Embeds the facts once written; the session's next recall waits for the writing. */
  #track(sessionKey: string, written: Promise<readonly RememberResult[]>): void {
    const writing = written
      .then((results) =>
        this.#embed(
          sessionKey,
          results.flatMap((result) => (result.kind === "merged" ? [] : [result.fact])),
        ),
      )
      .catch((error: unknown) => {
        this.#deps.logger.error({ sessionKey, error: describeError(error) }, "could not write remembered facts");
      })
      .finally(() => {
        if (this.#writing.get(sessionKey) === writing) this.#writing.delete(sessionKey);
      });
    this.#writing.set(sessionKey, writing);
    this.#deps.track(writing);
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

/** The tool call ids answered by the tool results among `messages`. */
function toolResultIds(messages: readonly AgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    const m = message as { role?: string; toolCallId?: string };
    if (m.role === "toolResult" && m.toolCallId !== undefined) ids.add(m.toolCallId);
  }
  return ids;
}

function strategyOf(options: GatewayMemoryOptions): RecallStrategy {
  return options.embedder === undefined ? "fulltext" : "hybrid";
}

function withEmbedder(options: GatewayMemoryOptions): RecallOptions {
  return {
    ...options.recall,
    ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
  };
}
