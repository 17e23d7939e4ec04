import { estimateTokens } from "@chorus/core";
import {
  type ConsolidationRun,
  measureConsolidation,
  measureReduction,
  type ReductionRun,
} from "../measure/focus-consolidation.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";

const SIZES = [500, 2_000] as const;

function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : formatNumber(value);
}

/** The tables: the event loop during a consolidation pass, and the reduction before each model call. */
export function focusTables(passes: readonly ConsolidationRun[], reductions: readonly ReductionRun[]): ReportTable[] {
  return [
    {
      title: "Focus auto-consolidation: event-loop delay while the O(K²) pairwise scoring runs",
      headers: [
        "segments",
        "scoring",
        "pass (ms)",
        "slice p99 / max (ms)",
        "loop delay p50 (ms)",
        "p99 (ms)",
        "max (ms)",
        "merges",
      ],
      rows: passes.map((run) => [
        formatNumber(run.segments, 0),
        run.mode,
        ms(run.passMs),
        `${ms(run.sliceP99Ms)} / ${ms(run.longestSliceMs)}`,
        ms(run.delayP50Ms),
        ms(run.delayP99Ms),
        ms(run.delayMaxMs),
        formatNumber(run.merges, 0),
      ]),
      notes: [
        "Bounded slices: what ships — at most 4 ms of scoring, then a setImmediate yield (seed 002: never stall the executor).",
        "One block: the same scoring without yielding, for comparison — every timer and turn waits for the whole pass.",
        "Delay: how late each tick of a 1 ms interval timer came while the pass ran (max: also monitorEventLoopDelay).",
        "Slice: scoring between two yields (wall clock: a slice the OS paused or a GC ran in is longer); delay beyond the",
        "slices is the machine's load (2 shared cores).",
      ],
    },
    {
      title: "Focus reduction before each model call on a long session",
      headers: [
        "segments",
        "messages",
        "first reduction (ms)",
        "each later call p50 (ms)",
        "tokens raw",
        "tokens reduced",
      ],
      rows: reductions.map((run) => [
        formatNumber(run.segments, 0),
        formatNumber(run.messages, 0),
        ms(run.firstMs),
        ms(run.steadyMs),
        formatNumber(run.tokensRaw, 0),
        formatNumber(run.tokensReduced, 0),
      ]),
      notes: ["Each segment: start_focus, a read with a 2 000-character result, complete_focus with ~40 words."],
    },
  ];
}

/** `pnpm bench focus`: the Focus strategy on long sessions (issue #34 requirement 3). */
export const focusSuite: BenchSuite = {
  name: "focus",
  description: "Focus strategy: event-loop delay during auto-consolidation (500 / 2 000 segments), reduction cost",
  async run(progress) {
    const passes: ConsolidationRun[] = [];
    progress("warm-up pass (not reported): the first pass in a process also pays for compiling the scoring");
    await measureConsolidation(200, "bounded slices");
    for (const size of SIZES) {
      for (const mode of ["bounded slices", "one block"] as const) {
        progress(`consolidation over ${size} segments, ${mode}`);
        passes.push(await measureConsolidation(size, mode));
      }
    }
    const reductions = SIZES.map((size) => {
      progress(`reduction of a ${size}-segment session`);
      return measureReduction(size, (messages) => estimateTokens(messages));
    });
    return { suite: "focus", tables: focusTables(passes, reductions) };
  },
};
