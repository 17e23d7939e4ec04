import type { CoreSystem } from "../systems/core-system.js";
import { TOOL_ROUND_TRIP_ANSWER, toolRoundTrip } from "../workloads/tool-round-trip.js";
import { expectAnswer } from "./expect-answer.js";
import { canForceGc, forceGc } from "./gc.js";
import { rotated } from "./rotation.js";
import { median } from "./stats.js";

export interface LoopOverheadOptions {
  /** Runs per round (the 2 000). */
  runs: number;
  rounds: number;
  /** Untimed runs per system before the first round, to let the JIT settle. */
  warmupRuns: number;
  /**
   * Runs per slice: within a round the systems take turns slice by slice, so a burst of
   * outside load hits them alike instead of landing on whichever ran at that moment.
   */
  sliceRuns: number;
}

export interface LoopOverheadResult {
  system: string;
  /** Median over rounds of the mean wall-clock µs per run. */
  wallMicrosPerRun: number;
  /**
   * Median over rounds of the mean CPU µs (user + system, all threads) per run. The loop is
   * CPU-bound, so this is close to wall time on an idle machine and stays honest on a busy one.
   */
  cpuMicrosPerRun: number;
}

function cpuMicrosNow(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/**
 * W1: times `runs` sequential tool round trips per system per round, in interleaved slices
 * whose order rotates. Contract: throws when a system's answer is wrong, so a broken
 * implementation never reports a (fast) number.
 */
export async function measureLoopOverhead(
  systems: readonly CoreSystem[],
  options: LoopOverheadOptions,
): Promise<LoopOverheadResult[]> {
  const runners = systems.map((system) => ({ system: system.name, run: system.prepare(toolRoundTrip) }));
  for (const runner of runners) {
    expectAnswer(runner.system, "W1", await runner.run(), TOOL_ROUND_TRIP_ANSWER);
    for (let i = 0; i < options.warmupRuns; i++) await runner.run();
  }
  const wallSamples = new Map<string, number[]>(runners.map((runner) => [runner.system, []]));
  const cpuSamples = new Map<string, number[]>(runners.map((runner) => [runner.system, []]));
  let turn = 0;
  for (let round = 0; round < options.rounds; round++) {
    if (canForceGc()) forceGc();
    const wallMs = new Map<string, number>();
    const cpuMicros = new Map<string, number>();
    for (let done = 0; done < options.runs; done += options.sliceRuns) {
      const slice = Math.min(options.sliceRuns, options.runs - done);
      for (const runner of rotated(runners, turn++)) {
        const wallStart = performance.now();
        const cpuStart = cpuMicrosNow();
        for (let i = 0; i < slice; i++) await runner.run();
        cpuMicros.set(runner.system, (cpuMicros.get(runner.system) ?? 0) + cpuMicrosNow() - cpuStart);
        wallMs.set(runner.system, (wallMs.get(runner.system) ?? 0) + performance.now() - wallStart);
      }
    }
    for (const runner of runners) {
      wallSamples.get(runner.system)?.push(((wallMs.get(runner.system) ?? 0) * 1000) / options.runs);
      cpuSamples.get(runner.system)?.push((cpuMicros.get(runner.system) ?? 0) / options.runs);
    }
  }
  return runners.map((runner) => ({
    system: runner.system,
    wallMicrosPerRun: median(wallSamples.get(runner.system) ?? []),
    cpuMicrosPerRun: median(cpuSamples.get(runner.system) ?? []),
  }));
}
