import type { CoreLogger } from "../../logging/core-logger.js";
import type { AgentEvent } from "../../loop/agent-events.js";
import type { ContextConfig } from "../../loop/loop-config.js";
import type { AgentMessage } from "../../messages/message-types.js";
import type { AnyAgentTool } from "../../tools/tool-types.js";
import { type GroupingOptions, similarGroups } from "./consolidation-groups.js";
import {
  type FocusSettings,
  MAX_SCOPE_CHARS,
  type ResolvedFocusSettings,
  resolveFocusSettings,
} from "./focus-config.js";
import { reduceFocusSegments } from "./focus-reduction.js";
import { type FocusMerge, type FocusSegment, FocusState } from "./focus-state.js";
import { focusTools } from "./focus-tools.js";
import { mergeKnowledge } from "./knowledge-similarity.js";

/** What a Focus strategy needs besides its settings. */
export interface FocusStrategyOptions extends FocusSettings {
  /** The session's state read back (FocusState.restore); default a fresh one. */
  state?: FocusState;
  /** Called after every change of the state (a tool call, a turn counted, a merge), e.g. to store its snapshot. */
  onChange?: (state: FocusState) => void;
  logger?: CoreLogger;
  /** How the consolidation's pairwise scoring shares the event loop (slice length; for tests the clock, a slice hook). */
  scoring?: Pick<GroupingOptions, "sliceMs" | "now" | "onSlice">;
}

/**
 * Seed 002's Focus compression strategy for one session, after "Active Context Compression" (Verma, 2026): the agent
 * opens and closes focus segments with `start_focus` / `complete_focus`; before each model call a closed segment's raw
 * messages are replaced in the transcript by its knowledge (`applyTo` wires that in as `context.focus`); every
 * `autoConsolidateMinWindow` turns a pass merges closed segments whose knowledge is similar (token-set Jaccard), its
 * O(K²) scoring in bounded slices off the turn's path.
 * Contract: the constructor throws FocusConfigError for bad settings (`autoConsolidateMinWindow: 0` included);
 * `reduce` and `onEvent` never throw and return at once (a consolidation runs in the background, one at a time).
 * @example
 * const focus = new FocusStrategy({ autoConsolidateMinWindow: 4, onChange: (s) => save(s.snapshot()) });
 * const agent = new Agent({ model, streamFn, tools: [...tools, ...focus.tools], context: focus.applyTo({}) });
 * agent.subscribe((event) => focus.onEvent(event));
 */
export class FocusStrategy {
  readonly state: FocusState;
  readonly settings: ResolvedFocusSettings;
  readonly tools: AnyAgentTool[];
  readonly #options: FocusStrategyOptions;
  #consolidation: Promise<number> | undefined;
  #abort = new AbortController();
  #last: { revision: number; first: unknown; end: unknown; length: number } | undefined;

  constructor(options: FocusStrategyOptions = {}) {
    this.settings = resolveFocusSettings(options);
    this.#options = options;
    this.state = options.state ?? new FocusState();
    this.tools = focusTools(this.state, {
      maxKnowledgeChars: this.settings.maxKnowledgeChars,
      changed: () => this.#changed(),
    });
  }

  /** The context settings with the reduction wired in (`context.focus`). Contract: the input is not changed. */
  applyTo(context: ContextConfig = {}): ContextConfig {
    return { ...context, focus: { reduce: (messages) => this.reduce(messages) } };
  }

  /**
   * The transcript with closed segments replaced by their knowledge, or undefined when nothing changes. Segments no
   * longer anywhere in the transcript (a summarising compaction covered their knowledge) are forgotten.
   */
  reduce(messages: readonly AgentMessage[]): AgentMessage[] | undefined {
    if (this.#reduced(messages)) return undefined;
    try {
      const reduction = reduceFocusSegments(messages, this.state.closed);
      if (reduction.absent.size > 0 && messages.length > 0) {
        this.state.forget(reduction.absent);
        this.#changed();
      }
      const out = reduction.messages ?? messages;
      this.#last = { revision: this.state.segmentsRevision, first: out[0], end: out.at(-1), length: out.length };
      return reduction.messages;
    } catch (error) {
      this.#options.logger?.warn({ error: (error as Error)?.message ?? String(error) }, "focus reduction failed");
      return undefined;
    }
  }

  /** Hears the session's agent events: each run's end counts a turn, and may start an auto-consolidation. */
  onEvent(event: AgentEvent): void {
    if (event.type !== "agent_end") return;
    this.state.turnEnded();
    this.#changed();
    if (this.#consolidation === undefined && this.state.shouldAutoConsolidate(this.settings.autoConsolidateMinWindow)) {
      this.consolidate().catch(() => {});
    }
  }

  /**
   * Merges the closed segments whose knowledge is similar now (the auto-consolidation pass; also callable directly).
   * Contract: resolves to the number of segments merged into others; one pass at a time (a second call joins the
   * running one); segments closed while it scores are left for the next pass; never rejects.
   */
  consolidate(): Promise<number> {
    if (this.#consolidation !== undefined) return this.#consolidation;
    this.state.consolidationStarted();
    this.#changed();
    const segments = this.state.live();
    const run = this.#merge(segments)
      .catch((error: unknown) => {
        if (!this.#abort.signal.aborted) {
          this.#options.logger?.warn(
            { error: (error as Error)?.message ?? String(error) },
            "focus consolidation failed",
          );
        }
        return 0;
      })
      .finally(() => {
        this.#consolidation = undefined;
      });
    this.#consolidation = run;
    return run;
  }

  /** Resolves when the consolidation under way (if any) has ended. For tests and shutdown. */
  async settled(): Promise<void> {
    await this.#consolidation;
  }

  /** Forgets every segment (a new conversation); a consolidation under way is dropped. */
  reset(): void {
    this.#abort.abort(new Error("the focus state was reset"));
    this.#abort = new AbortController();
    this.state.clear();
    this.#changed();
  }

  /** Stops a consolidation under way (the session is let go). */
  close(): void {
    this.#abort.abort(new Error("the focus strategy was closed"));
  }

  async #merge(segments: FocusSegment[]): Promise<number> {
    if (segments.length < 2) return 0;
    const signal = this.#abort.signal;
    const groups = await similarGroups(
      segments.map((segment) => `${segment.scope}\n${segment.knowledge}`),
      this.settings.similarityThreshold,
      { ...this.#options.scoring, signal },
    );
    if (signal.aborted) return 0;
    const merges: FocusMerge[] = [];
    for (const group of groups) {
      if (group.length < 2) continue;
      const members = group.map((index) => segments[index] as FocusSegment);
      const keep = members[members.length - 1] as FocusSegment;
      const scopes = [...new Set(members.map((member) => member.scope))].join("; ");
      merges.push({
        keep: keep.id,
        absorbed: members.slice(0, -1).map((member) => member.id),
        scope: scopes.length <= MAX_SCOPE_CHARS ? scopes : `${scopes.slice(0, MAX_SCOPE_CHARS - 1)}…`,
        knowledge: mergeKnowledge(
          members.map((member) => member.knowledge),
          this.settings.maxKnowledgeChars,
        ),
      });
    }
    const absorbed = this.state.applyMerges(merges);
    if (absorbed > 0) this.#changed();
    return absorbed;
  }

  /**
   * Whether `messages` is the transcript last reduced, grown only at its end, with the segments unchanged since: then
   * nothing can be left to reduce (a segment's calls and knowledge only enter through a change of the segments), and
   * the scan is skipped — it runs before every model call, and a long session's transcript has thousands of messages.
   */
  #reduced(messages: readonly AgentMessage[]): boolean {
    const last = this.#last;
    return (
      last !== undefined &&
      last.revision === this.state.segmentsRevision &&
      messages.length >= last.length &&
      messages[0] === last.first &&
      messages[last.length - 1] === last.end
    );
  }

  #changed(): void {
    try {
      this.#options.onChange?.(this.state);
    } catch (error) {
      this.#options.logger?.warn({ error: (error as Error)?.message ?? String(error) }, "focus change hook failed");
    }
  }
}
