import { pathToFileURL } from "node:url";
import { captureTelemetry } from "@chorus/testkit";
import type { ChorusCoreModule } from "../systems/chorus.js";
import { chorus, chorusSystemOf } from "../systems/chorus.js";
import type { CoreSystem } from "../systems/core-system.js";
import { type LoopOverheadOptions, type LoopOverheadResult, measureLoopOverhead } from "./loop-overhead.js";

/** W1 on the current core without an SDK, with an SDK and an in-memory exporter, and on a baseline build. */
export interface TelemetryOverheadResult {
  /** Phase 1: the baseline (when given) and the current core, no SDK registered, interleaved. */
  readonly off: readonly LoopOverheadResult[];
  /** Phase 2: the baseline (when given) and the current core with the SDK registered, interleaved. */
  readonly on: readonly LoopOverheadResult[];
  /** Spans recorded per run with the SDK on (checks the instrumentation ran). */
  readonly spansPerRun: number;
}

export const BASELINE_NAME = "baseline core";
export const CURRENT_NAME = "@chorus/core";

/** Loads another build of `@chorus/core` (its `dist/` folder). */
export async function loadBaselineCore(distDir: string): Promise<ChorusCoreModule> {
  return (await import(pathToFileURL(`${distDir.replace(/\/$/, "")}/index.js`).href)) as ChorusCoreModule;
}

/**
 * W1 on the pair in both orders, averaged: on a busy machine the first-listed system of a pair measured ~14 % slower
 * even when both were the same build (an A/A run), so each order's bias cancels the other's.
 */
async function bothOrders(
  base: CoreSystem | undefined,
  current: CoreSystem,
  options: LoopOverheadOptions,
): Promise<LoopOverheadResult[]> {
  if (base === undefined) return measureLoopOverhead([current], options);
  const first = await measureLoopOverhead([base, current], options);
  const second = await measureLoopOverhead([current, base], options);
  return [base.name, current.name].map((system) => {
    const a = first.find((row) => row.system === system) as LoopOverheadResult;
    const b = second.find((row) => row.system === system) as LoopOverheadResult;
    return {
      system,
      cpuMicrosPerRun: (a.cpuMicrosPerRun + b.cpuMicrosPerRun) / 2,
      wallMicrosPerRun: (a.wallMicrosPerRun + b.wallMicrosPerRun) / 2,
    };
  });
}

/** The system with the exporter emptied every 500 runs (so memory stays flat); counts the spans it saw. */
function emptying(system: CoreSystem, spans: () => number, reset: () => void, seen: { spans: number; runs: number }) {
  return {
    ...system,
    prepare(scenario: Parameters<CoreSystem["prepare"]>[0]) {
      const run = system.prepare(scenario);
      return async () => {
        const answer = await run();
        seen.runs++;
        if (seen.runs % 500 === 0) {
          seen.spans += spans();
          reset();
        }
        return answer;
      };
    },
  } satisfies CoreSystem;
}

/**
 * Phase 1 measures W1 with no OpenTelemetry SDK (the libraries' API is a no-op), phase 2 with the SDK registered
 * (tracer provider, in-memory span exporter, meter provider, async context manager). The SDK stays registered once
 * set (the API's proxy tracer keeps its delegate), so phase 2 always comes last.
 */
export async function measureTelemetryOverhead(
  baseline: ChorusCoreModule | undefined,
  options: LoopOverheadOptions,
): Promise<TelemetryOverheadResult> {
  const base = baseline === undefined ? undefined : chorusSystemOf(baseline, BASELINE_NAME);
  const off = await bothOrders(base, chorus, options);
  const capture = captureTelemetry();
  const seen = { spans: 0, runs: 0 };
  try {
    const traced = emptying(chorus, () => capture.spans().length, capture.reset, seen);
    const on = await bothOrders(base, traced, options);
    return { off, on, spansPerRun: seen.runs === 0 ? 0 : seen.spans / seen.runs };
  } finally {
    await capture.stop();
  }
}
