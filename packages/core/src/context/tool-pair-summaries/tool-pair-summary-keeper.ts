import type { CoreLogger } from "../../logging/core-logger.js";
import type { ContextConfig } from "../../loop/loop-config.js";
import type { AgentMessage, AssistantMessage } from "../../messages/message-types.js";
import type { StreamContext } from "../../stream/stream-fn.js";
import { estimateMessageTokens } from "../token-estimate.js";
import { finishedToolPairs, type ToolPair, toolCallIds } from "./finished-tool-pairs.js";
import type { ToolPairSummariesConfig, ToolPairSummarySource } from "./tool-pair-summaries-config.js";
import { isSummarised, readToolPairSummary, toolPairSummaryRequest } from "./tool-pair-summary-request.js";

/** The summaries kept, by tool call id: plain JSON, to store with a session and give back to `restore`. */
export type ToolPairSummariesSnapshot = Record<string, string>;

/** Results smaller than this are not worth a summary call unless configured. */
export const DEFAULT_MIN_RESULT_TOKENS = 300;

/** How long one summary may take by default. */
export const TOOL_PAIR_SUMMARY_TIMEOUT_MS = 60_000;

/** What a keeper needs. */
export interface ToolPairSummaryKeeperOptions {
  /** Makes one summary call (a cheap model is enough). Its failure is logged and that pair left unsummarised. */
  complete(context: StreamContext, signal: AbortSignal): Promise<AssistantMessage>;
  /** Summaries kept before (e.g. read back from the session's settings). */
  restore?: ToolPairSummariesSnapshot;
  /** Results estimated below this many tokens are not summarised. Default 300. */
  minResultTokens?: number;
  /** A summary not made by then is given up. Default 60 000 ms. */
  timeoutMs?: number;
  logger?: CoreLogger;
  /** Called after a summary was added or summaries were dropped, e.g. to store the snapshot. */
  onChange?: (snapshot: ToolPairSummariesSnapshot) => void;
}

/**
 * Seed 002's deferred tool-pair summaries for one conversation: each finished (tool call, tool result) pair is
 * summarised in the background by a cheap model and kept, not applied, until the loop's soft tier needs it.
 * Contract: `notePairs` returns at once and never throws — a turn never waits for a summary; one summary call runs
 * at a time; a failing call is logged and ignored (that pair is not tried again); `close` stops for good (the call
 * under way is aborted).
 * @example
 * const keeper = new ToolPairSummaryKeeper({ complete: (ctx, signal) => streamFn(cheap, ctx, { signal }).result() });
 * const agent = new Agent({ model, streamFn, context: keeper.applyTo({}, { softThreshold: 0.6 }) });
 * agent.subscribe((e) => { if (e.type === "turn_end") keeper.notePairs(agent.state.messages); });
 */
export class ToolPairSummaryKeeper implements ToolPairSummarySource {
  readonly #options: ToolPairSummaryKeeperOptions;
  readonly #summaries = new Map<string, string>();
  /** Pairs waiting for their call, oldest first; with the ids queued or being summarised. */
  readonly #queue: ToolPair[] = [];
  readonly #queued = new Set<string>();
  /** Pairs whose summary failed: not tried again in this keeper's life (a summariser that is down costs one call each). */
  readonly #failed = new Set<string>();
  #running: Promise<void> | undefined;
  #abort: AbortController | undefined;
  #closed = false;

  constructor(options: ToolPairSummaryKeeperOptions) {
    this.#options = options;
    for (const [id, summary] of Object.entries(options.restore ?? {})) {
      if (typeof summary === "string") this.#summaries.set(id, summary);
    }
  }

  summaryOf(toolCallId: string): string | undefined {
    return this.#summaries.get(toolCallId);
  }

  /** How many summaries are kept. */
  get size(): number {
    return this.#summaries.size;
  }

  /**
   * Queues every finished pair of the transcript not summarised, queued or too small yet, and starts the work unless
   * it runs. Returns how many were queued. Contract: synchronous, never throws, never waits for a call.
   */
  notePairs(messages: readonly AgentMessage[]): number {
    if (this.#closed) return 0;
    const min = this.#options.minResultTokens ?? DEFAULT_MIN_RESULT_TOKENS;
    let added = 0;
    for (const pair of finishedToolPairs(messages)) {
      const id = pair.call.id;
      if (this.#summaries.has(id) || this.#queued.has(id) || this.#failed.has(id) || isSummarised(pair.result))
        continue;
      if (estimateMessageTokens(pair.result) < min) continue;
      this.#queue.push(pair);
      this.#queued.add(id);
      added++;
    }
    if (added > 0 && this.#running === undefined) this.#running = this.#drain();
    return added;
  }

  /**
   * Drops the summaries (and queued pairs) whose tool call is no longer in the transcript (compacted away, or a new
   * conversation), so what is kept stays bounded by the transcript. Returns whether anything was dropped.
   */
  retain(messages: readonly AgentMessage[]): boolean {
    const ids = toolCallIds(messages);
    let dropped = false;
    for (const id of [...this.#summaries.keys()]) {
      if (!ids.has(id)) dropped = this.#summaries.delete(id) || dropped;
    }
    for (const id of [...this.#failed]) if (!ids.has(id)) this.#failed.delete(id);
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      const id = (this.#queue[i] as ToolPair).call.id;
      if (!ids.has(id)) {
        this.#queue.splice(i, 1);
        this.#queued.delete(id);
      }
    }
    if (dropped) this.#changed();
    return dropped;
  }

  /** Forgets every summary and queued pair (a new conversation); a summary under way is dropped when it ends. */
  forget(): void {
    this.#queue.length = 0;
    this.#queued.clear();
    this.#failed.clear();
    this.#abort?.abort(new Error("the summaries were forgotten"));
    if (this.#summaries.size === 0) return;
    this.#summaries.clear();
    this.#changed();
  }

  /** The summaries as plain JSON (a new object). */
  snapshot(): ToolPairSummariesSnapshot {
    return Object.fromEntries(this.#summaries);
  }

  /** Resolves when no summary is under way or queued. For tests and shutdown. */
  async settled(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  /** Stops for good: the queue is dropped and the call under way aborted. Contract: idempotent. */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#queued.clear();
    this.#abort?.abort(new Error("the keeper was closed"));
  }

  /**
   * The context config with this keeper as the soft tier's summaries. Contract: the input is not changed; `settings`
   * (threshold, kept results) replace any the input had.
   */
  applyTo(context: ContextConfig = {}, settings: Omit<ToolPairSummariesConfig, "summaries"> = {}): ContextConfig {
    return { ...context, toolPairSummaries: { ...context.toolPairSummaries, ...settings, summaries: this } };
  }

  async #drain(): Promise<void> {
    // Off the caller's stack: notePairs returns before any work starts.
    await Promise.resolve();
    try {
      for (let pair = this.#queue.shift(); pair !== undefined; pair = this.#queue.shift()) {
        await this.#summarise(pair);
        this.#queued.delete(pair.call.id);
      }
    } finally {
      this.#running = undefined;
    }
  }

  async #summarise(pair: ToolPair): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    const timeoutMs = this.#options.timeoutMs ?? TOOL_PAIR_SUMMARY_TIMEOUT_MS;
    const timer = setTimeout(() => abort.abort(new Error(`no summary within ${timeoutMs} ms`)), timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    const gaveUp = new Promise<never>((_, reject) => {
      abort.signal.addEventListener("abort", () => reject(abort.signal.reason), { once: true });
    });
    gaveUp.catch(() => {});
    try {
      const reply = await Promise.race([
        this.#options.complete(toolPairSummaryRequest(pair.call, pair.result), abort.signal),
        gaveUp,
      ]);
      const summary = readToolPairSummary(reply);
      if (summary === undefined) throw new Error(reply.errorMessage ?? "the summariser gave no text");
      if (abort.signal.aborted || !this.#queued.has(pair.call.id)) return; // forgotten or dropped meanwhile
      this.#summaries.set(pair.call.id, summary);
      this.#changed();
    } catch (error) {
      if (this.#closed || !this.#queued.has(pair.call.id)) return; // stopped on purpose: nothing went wrong
      this.#failed.add(pair.call.id);
      this.#options.logger?.warn(
        { err: (error as Error)?.message ?? String(error), tool: pair.call.name },
        "a tool-pair summary failed",
      );
    } finally {
      clearTimeout(timer);
      if (this.#abort === abort) this.#abort = undefined;
    }
  }

  #changed(): void {
    try {
      this.#options.onChange?.(this.snapshot());
    } catch (error) {
      this.#options.logger?.warn(
        { err: (error as Error)?.message ?? String(error) },
        "a tool-pair summary hook failed",
      );
    }
  }
}
