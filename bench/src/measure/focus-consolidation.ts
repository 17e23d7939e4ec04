import { monitorEventLoopDelay } from "node:perf_hooks";
import { type AgentMessage, FocusState, FocusStrategy, reduceFocusSegments, similarGroups } from "@chorus/core";
import { assistantToolCalls, toolResult, userMessage } from "@chorus/core/testing";

/** How one consolidation pass shared the event loop. */
export interface ConsolidationRun {
  readonly segments: number;
  /** "bounded slices" (what ships: `similarGroups`' default) or "one block" (the same scoring without yielding). */
  readonly mode: "bounded slices" | "one block";
  readonly passMs: number;
  /** Event-loop delay while the pass ran: how late a 1 ms timer's ticks came (max also from monitorEventLoopDelay). */
  readonly delayP50Ms: number;
  readonly delayP99Ms: number;
  readonly delayMaxMs: number;
  /** The longest stretch of scoring without a yield (the pass's own share of the delay; the rest is the machine). */
  readonly longestSliceMs: number;
  /** How many slices the scoring ran in (1: it never yielded). */
  readonly slices: number;
  /** The 99th percentile of the slices' lengths. */
  readonly sliceP99Ms: number;
  /** Groups of two or more found (merges). */
  readonly merges: number;
}

/** One reduction before a model call on a long session's transcript. */
export interface ReductionRun {
  readonly segments: number;
  readonly messages: number;
  /** The first reduction (every segment's raw messages replaced), ms. */
  readonly firstMs: number;
  /** A reduction of the already reduced transcript (what every later model call pays), median ms. */
  readonly steadyMs: number;
  readonly tokensRaw: number;
  readonly tokensReduced: number;
}

/**
 * Knowledge of `count` closed segments: every fourth one repeats an earlier topic (so some merge), the rest are
 * distinct — most pairs are scored and few match, close to the O(K²) worst case.
 */
export function segmentKnowledge(count: number): string[] {
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const topic = i % 4 === 3 ? i - 3 : i;
    texts.push(
      `module${topic} handler${topic} reads config${topic} from path${topic}; tests${topic} cover parser${topic} ` +
        `and cache${topic}; the fix${topic} went into file${topic}.ts line ${i}`,
    );
  }
  return texts;
}

/** Runs one grouping pass over `count` segments and measures the event-loop delay meanwhile. */
export async function measureConsolidation(count: number, mode: ConsolidationRun["mode"]): Promise<ConsolidationRun> {
  const texts = segmentKnowledge(count);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // A 1 ms timer that must keep firing (what other sessions' work looks like to the event loop): how late each of
  // its ticks comes is the delay, also for a pass that blocks throughout (the histogram then has no sample inside it).
  const lateness: number[] = [];
  let expected = performance.now() + 1;
  const ticker = setInterval(() => {
    const now = performance.now();
    lateness.push(Math.max(0, now - expected));
    expected = now + 1;
  }, 1);
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const started = performance.now();
  const slices: number[] = [];
  const onSlice = (ms: number): void => {
    slices.push(ms);
  };
  const sliceMs = mode === "one block" ? Number.POSITIVE_INFINITY : undefined;
  const groups = await similarGroups(texts, 0.5, sliceMs === undefined ? { onSlice } : { sliceMs, onSlice });
  const passMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 5));
  histogram.disable();
  clearInterval(ticker);
  lateness.sort((a, b) => a - b);
  const at = (q: number): number => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))] ?? 0;
  return {
    segments: count,
    mode,
    passMs,
    delayP50Ms: at(0.5),
    delayP99Ms: at(0.99),
    delayMaxMs: Math.max(lateness.at(-1) ?? 0, histogram.max / 1e6),
    longestSliceMs: slices.reduce((a, b) => Math.max(a, b), 0),
    slices: slices.length,
    sliceP99Ms: slices.sort((a, b) => a - b)[Math.min(slices.length - 1, Math.floor(0.99 * slices.length))] ?? 0,
    merges: groups.filter((group) => group.length > 1).length,
  };
}

/** A transcript of `count` completed focus segments (start, a read with a 2 000-character result, complete). */
function longSession(count: number): { messages: AgentMessage[]; state: FocusState } {
  const state = new FocusState();
  const messages: AgentMessage[] = [];
  const texts = segmentKnowledge(count);
  for (let i = 0; i < count; i++) {
    messages.push(userMessage(`step ${i}`));
    messages.push(assistantToolCalls([{ name: "start_focus", id: `s${i}`, args: { scope: `step ${i}` } }]));
    messages.push(toolResult(`s${i}`, "start_focus", "started"));
    messages.push(assistantToolCalls([{ name: "read_file", id: `r${i}`, args: { path: `file${i}.ts` } }]));
    messages.push(toolResult(`r${i}`, "read_file", "x".repeat(2_000)));
    messages.push(assistantToolCalls([{ name: "complete_focus", id: `c${i}`, args: { knowledge: texts[i] } }]));
    messages.push(toolResult(`c${i}`, "complete_focus", "completed"));
    state.start(`step ${i}`, `s${i}`);
    state.complete(texts[i] as string, `c${i}`);
  }
  return { messages, state };
}

/** Measures the reduction that runs before every model call, on a session of `count` completed segments. */
export function measureReduction(count: number, estimate: (messages: AgentMessage[]) => number): ReductionRun {
  const { messages, state } = longSession(count);
  let started = performance.now();
  const reduced = reduceFocusSegments(messages, state.closed).messages ?? messages;
  const firstMs = performance.now() - started;
  const times: number[] = [];
  const strategy = new FocusStrategy({ state });
  for (let i = 0; i < 21; i++) {
    started = performance.now();
    strategy.reduce(reduced);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    segments: count,
    messages: messages.length,
    firstMs,
    steadyMs: times[10] ?? 0,
    tokensRaw: estimate(messages),
    tokensReduced: estimate(reduced),
  };
}
