import type { CoreLogger } from "../../logging/core-logger.js";
import type { AgentEvent } from "../../loop/agent-events.js";
import type { AgentMessage, Message } from "../../messages/message-types.js";
import type { Model } from "../../model/model.js";
import type { StreamFn, StreamOptions } from "../../stream/stream-fn.js";
import { defaultConvertToLlm } from "../convert-to-llm.js";
import { isRefreshDue, progressFrom, type SessionMemoryProgress } from "./session-memory-progress.js";
import { DEFAULT_SESSION_MEMORY_PROMPT, refreshRequest } from "./session-memory-prompt.js";
import { parseSessionMemorySnapshot, type SessionMemorySnapshot, snapshotOf } from "./session-memory-snapshot.js";
import {
  coveredMessageAt,
  SESSION_MEMORY_DEFAULTS,
  type SessionMemorySource,
  type SessionMemorySummary,
  stillCovers,
} from "./session-memory-summary.js";

/** The purpose a refresh call carries, so a host's budget reserves and books it as its own kind. */
export const SESSION_MEMORY_PURPOSE = "session_memory";

/** What a session's memory needs: its (cheap) model, the stream function, the triggers and where to keep it. */
export interface SessionMemoryOptions {
  /** The refresh model, or a function giving it at each refresh (e.g. the session's current model). */
  model: Model | (() => Model);
  /** Every refresh call goes through it with `sessionId` and purpose `session_memory`. */
  streamFn: StreamFn;
  sessionId?: string;
  /** New tokens since the last refresh before the next one. Default 5 000. */
  minTokens?: number;
  /** Tool calls since the last refresh before the next one (or a natural break). Default 10. */
  minToolCalls?: number;
  /** Tier 1 applies the summary only when that saves at least this many tokens. Default 10 000. */
  minSavingsTokens?: number;
  /** Instructions of the refresh model. */
  prompt?: string;
  /** Output cap of a refresh call. */
  maxTokens?: number;
  convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;
  logger?: CoreLogger;
  /** The kept summary changed (a refresh landed, or tier 1 moved what it covers): store `snapshot` (undefined: none). */
  onChange?: (snapshot: SessionMemorySnapshot | undefined) => void;
}

/**
 * One session's kept summary (seed 004's background session-memory agent): refreshed off the turn's critical path
 * once enough happened since the last refresh, read by tier-1 compaction (give it as `context.compaction.sessionMemory`).
 * Contract: `refreshAfterTurn` and `observe` return at once and never throw; one refresh runs at a time; a failed
 * refresh is logged and changes nothing; a reply that lands after the transcript moved (a compaction, a fresh start)
 * is dropped; `current()` is never applied to a transcript that no longer holds its covered message.
 *
 * @example
 * const memory = new SessionMemory({ model: cheapModel, streamFn, sessionId: "s1" }, stored);
 * agent.subscribe((event) => memory.observe(event, agent.state.messages));
 * const context = { compaction: { sessionMemory: memory } };
 */
export class SessionMemory implements SessionMemorySource {
  readonly minSavingsTokens: number;
  readonly #options: SessionMemoryOptions;
  #summary: SessionMemorySummary | undefined;
  /** Bumped whenever the transcript moves under the keeper: a refresh started before then is dropped. */
  #generation = 0;
  #refresh: { promise: Promise<void>; abort: AbortController } | undefined;

  /** Contract: throws SessionMemorySnapshotError when `snapshot` is given and is not one. */
  constructor(options: SessionMemoryOptions, snapshot?: unknown) {
    this.#options = options;
    this.minSavingsTokens = options.minSavingsTokens ?? SESSION_MEMORY_DEFAULTS.minSavingsTokens;
    if (snapshot !== undefined) {
      const { text, covered } = parseSessionMemorySnapshot(snapshot);
      this.#summary = { text, covered };
    }
  }

  current(): SessionMemorySummary | undefined {
    return this.#summary;
  }

  /** The stored form of the summary, or undefined while there is none. */
  snapshot(): SessionMemorySnapshot | undefined {
    return this.#summary === undefined ? undefined : snapshotOf(this.#summary);
  }

  /** What `messages` gained since the summary's covered message (all of them when the transcript moved). */
  progress(messages: readonly AgentMessage[]): SessionMemoryProgress {
    const summary = this.#summary;
    const from = summary !== undefined && stillCovers(summary.covered, messages) ? summary.covered.index + 1 : 0;
    return progressFrom(messages, from);
  }

  /** Resolves when the refresh running now (if any) has ended; never rejects. */
  whenIdle(): Promise<void> {
    return this.#refresh?.promise ?? Promise.resolve();
  }

  /**
   * Feeds one event of the session's Agent with its transcript: a turn's or a run's end may start a refresh; a
   * tier-2 compaction moves the transcript (a refresh under way is dropped). Contract: returns at once; never throws.
   */
  observe(event: AgentEvent, messages: readonly AgentMessage[]): void {
    if (event.type === "turn_end" || event.type === "agent_end") this.refreshAfterTurn(messages);
    else if (event.type === "compaction" && event.kind === "summary" && event.tier !== 1) this.#generation++;
  }

  /**
   * Starts a refresh when one is due (seed triggers, or a natural break past the token threshold) and none runs.
   * Contract: fire-and-forget — returns at once whether one started; never throws; never awaited by a turn.
   */
  refreshAfterTurn(messages: readonly AgentMessage[]): boolean {
    if (this.#refresh !== undefined || messages.length === 0) return false;
    const triggers = {
      minTokens: this.#options.minTokens ?? SESSION_MEMORY_DEFAULTS.minTokens,
      minToolCalls: this.#options.minToolCalls ?? SESSION_MEMORY_DEFAULTS.minToolCalls,
    };
    if (!isRefreshDue(this.progress(messages), triggers)) return false;
    const abort = new AbortController();
    const promise = this.#runRefresh(messages.slice(), abort.signal)
      .catch((error: unknown) => {
        this.#options.logger?.warn({ err: (error as Error).message }, "refreshing the session memory failed");
      })
      .finally(() => {
        if (this.#refresh?.abort === abort) this.#refresh = undefined;
      });
    this.#refresh = { promise, abort };
    return true;
  }

  /** Tier 1 replaced the covered messages with `part`: the summary now covers `part` where it landed. */
  applied(messages: readonly AgentMessage[], part: AgentMessage): void {
    const summary = this.#summary;
    const index = messages.indexOf(part);
    this.#generation++;
    if (summary === undefined || index < 0) return;
    this.#change({ text: summary.text, covered: coveredMessageAt(messages, index) });
  }

  /** Forgets the summary (a fresh start) and drops a refresh under way. */
  reset(): void {
    this.#generation++;
    this.#refresh?.abort.abort();
    this.#refresh = undefined;
    if (this.#summary !== undefined) this.#change(undefined);
  }

  /** Stops a refresh under way (the session is let go); the summary stays. */
  release(): void {
    this.#generation++;
    this.#refresh?.abort.abort();
    this.#refresh = undefined;
  }

  async #runRefresh(messages: AgentMessage[], signal: AbortSignal): Promise<void> {
    const generation = this.#generation;
    const previous = this.#summary;
    const incremental = previous !== undefined && stillCovers(previous.covered, messages);
    const from = incremental ? previous.covered.index + 1 : 0;
    const convert = this.#options.convertToLlm ?? defaultConvertToLlm;
    const since = await convert(messages.slice(from));
    const model = typeof this.#options.model === "function" ? this.#options.model() : this.#options.model;
    const apiKey = await this.#options.getApiKey?.(model.provider);
    const { sessionId, maxTokens } = this.#options;
    const options: StreamOptions = {
      signal,
      purpose: SESSION_MEMORY_PURPOSE,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
      ...(apiKey === undefined ? {} : { apiKey }),
    };
    const prompt = this.#options.prompt ?? DEFAULT_SESSION_MEMORY_PROMPT;
    const request = refreshRequest(prompt, incremental ? previous.text : undefined, since);
    const reply = await this.#options.streamFn(model, request, options).result();
    if (reply.stopReason === "error" || reply.stopReason === "aborted") {
      throw new Error(`the session-memory model failed: ${reply.errorMessage ?? reply.stopReason}`);
    }
    const text = reply.content
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("")
      .trim();
    if (text === "") throw new Error("the session-memory model returned an empty summary");
    // A late reply: the transcript it summarised has moved (compaction, fresh start, let go) — drop it.
    if (generation !== this.#generation) return;
    this.#change({ text, covered: coveredMessageAt(messages, messages.length - 1) });
  }

  #change(summary: SessionMemorySummary | undefined): void {
    this.#summary = summary;
    try {
      this.#options.onChange?.(summary === undefined ? undefined : snapshotOf(summary));
    } catch (error) {
      this.#options.logger?.warn({ err: (error as Error).message }, "storing the session memory failed");
    }
  }
}
