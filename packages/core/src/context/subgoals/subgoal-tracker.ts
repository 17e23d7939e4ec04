import type { CoreLogger } from "../../logging/core-logger.js";
import type { ContextConfig } from "../../loop/loop-config.js";
import type { AgentMessage, AssistantMessage } from "../../messages/message-types.js";
import type { StreamContext } from "../../stream/stream-fn.js";
import type { CompactionStep } from "../compaction-steps.js";
import { evictionScores, type SubgoalPruningStrategy } from "./eviction-scores.js";
import { subgoalCompactionStep } from "./subgoal-compaction-step.js";
import { readSubgoalReply, subgoalRequest } from "./subgoal-extraction.js";
import { SubgoalRegistry } from "./subgoal-registry.js";

/** What a subgoal tracker needs. */
export interface SubgoalTrackerOptions {
  strategy: SubgoalPruningStrategy;
  /** Makes the extraction call (a fast model is enough). Its failure is logged and ignored. */
  complete(context: StreamContext): Promise<AssistantMessage>;
  logger?: CoreLogger;
  /** Called after the registry changed (a reading applied, spans moved by a compaction), e.g. to store it. */
  onChange?: (registry: SubgoalRegistry) => void;
  /**
   * Tokens of drained active-subgoal messages re-inserted after a hard compaction, newest first (a number, or a
   * function read at each compaction, e.g. a share of the current model's window). Default 40 000.
   */
  maxReinsertTokens?: number | (() => number);
  /** An extraction not answered by then is given up, so a hung call does not stop tracking. Default 60 000 ms. */
  timeoutMs?: number;
}

/** Default cap on the drained active-subgoal tokens re-inserted after a hard compaction. */
export const SUBGOAL_REINSERT_TOKENS = 40_000;

/** How long an extraction may take by default. */
export const SUBGOAL_EXTRACTION_TIMEOUT_MS = 60_000;

/**
 * HiAgent subgoal tracking for one session (seed 002): a fire-and-forget extraction between turns keeps the
 * registry current; `applyTo` wires its tiers into micro-compaction and its re-insertion into hard compaction.
 * Contract: `refreshAfterTurn` returns at once and never throws — a turn never waits for the extraction; one
 * extraction runs at a time; a reply that arrives after a compaction moved the transcript is dropped.
 * @example
 * const subgoals = new SubgoalTracker({ strategy: "subgoal", complete: (ctx) => streamFn(fast, ctx).result() });
 * const agent = new Agent({ model, streamFn, context: subgoals.applyTo({}) });
 * agent.subscribe((e) => { if (e.type === "agent_end") subgoals.refreshAfterTurn(agent.state.messages); });
 */
export class SubgoalTracker {
  readonly strategy: SubgoalPruningStrategy;
  readonly registry = new SubgoalRegistry();
  readonly compactionStep: CompactionStep;
  readonly #options: SubgoalTrackerOptions;
  #inFlight: Promise<void> | undefined;
  #compactions = 0;

  constructor(options: SubgoalTrackerOptions) {
    this.strategy = options.strategy;
    this.#options = options;
    const max = options.maxReinsertTokens ?? SUBGOAL_REINSERT_TOKENS;
    const step = subgoalCompactionStep(this.registry, typeof max === "function" ? max : () => max);
    this.compactionStep = (input) => {
      this.#compactions++;
      const out = step(input);
      this.#changed();
      return out;
    };
  }

  /** The active subgoal's description (for /status), if any. */
  get activeSubgoal(): string | undefined {
    return this.registry.activeSubgoal()?.description;
  }

  /** Starts an extraction over the finished turn's messages, unless one is running. Never awaits it. */
  refreshAfterTurn(messages: readonly AgentMessage[]): void {
    if (this.#inFlight !== undefined) return;
    const length = messages.length;
    // A transcript shorter than the spans is a new conversation (e.g. /new): its subgoals start afresh.
    if (length < this.registry.coveredLength) this.registry.clear();
    const compactions = this.#compactions;
    const turnStart = lastUserIndex(messages);
    this.registry.extendActive(length);
    const request = subgoalRequest(messages, this.activeSubgoal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeoutMs = this.#options.timeoutMs ?? SUBGOAL_EXTRACTION_TIMEOUT_MS;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      (timer as { unref?: () => void }).unref?.();
    });
    const run = Promise.resolve()
      .then(() => Promise.race([this.#options.complete(request), timedOut]))
      .then((reply) => {
        if (reply.stopReason === "error" || reply.stopReason === "aborted") {
          throw new Error(reply.errorMessage ?? reply.stopReason);
        }
        if (compactions !== this.#compactions) return; // the spans moved meanwhile: this reading is stale
        this.#apply(readSubgoalReply(reply), turnStart, length);
        this.#changed();
      })
      .catch((error: unknown) =>
        this.#options.logger?.warn({ error: (error as Error)?.message ?? String(error) }, "subgoal extraction failed"),
      )
      .finally(() => {
        clearTimeout(timer);
        this.#inFlight = undefined;
      });
    this.#inFlight = run;
  }

  /** Resolves when the extraction under way (if any) has settled. For tests and shutdown. */
  async settled(): Promise<void> {
    await this.#inFlight;
  }

  /**
   * The context config with this tracker wired in: micro-compaction never clears active-subgoal tool results, and
   * its compaction step runs after the given config's own steps. Contract: the input is not changed.
   */
  applyTo(context: ContextConfig = {}): ContextConfig {
    return {
      ...context,
      microCompaction: {
        ...context.microCompaction,
        scores: (messages) => evictionScores(messages, this.registry, this.strategy),
      },
      compaction: {
        ...context.compaction,
        afterCompaction: [...(context.compaction?.afterCompaction ?? []), this.compactionStep],
      },
    };
  }

  /** Forgets every subgoal (a new conversation); an extraction under way is dropped. */
  reset(): void {
    this.#compactions++;
    this.registry.clear();
    this.#changed();
  }

  #changed(): void {
    try {
      this.#options.onChange?.(this.registry);
    } catch (error) {
      this.#options.logger?.warn({ error: (error as Error)?.message ?? String(error) }, "subgoal change hook failed");
    }
  }

  #apply(reading: { completed: boolean; current: string | undefined }, turnStart: number, length: number): void {
    const active = this.registry.activeSubgoal();
    if (reading.completed && active !== undefined) {
      this.registry.completeActive(reading.current === undefined ? length : turnStart);
    }
    const current = reading.current;
    if (current === undefined) return;
    const still = this.registry.activeSubgoal();
    if (still !== undefined && same(still.description, current)) this.registry.extendActive(length);
    else this.registry.start(current, turnStart, length);
  }
}

function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function lastUserIndex(messages: readonly AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if ((messages[i] as { role: string }).role === "user") return i;
  return 0;
}
