import type { CoreSystem } from "../systems/core-system.js";
import { type StreamingToolsTiming, streamingTools, streamingToolsAnswer } from "../workloads/streaming-tools.js";
import { expectAnswer } from "./expect-answer.js";
import { rotated } from "./rotation.js";
import { median } from "./stats.js";

export interface StreamingWallTimeOptions {
  timing: StreamingToolsTiming;
  rounds: number;
}

export interface StreamingWallTimeResult {
  system: string;
  /** Median wall time from prompt to final answer. */
  wallMs: number;
  roundMs: number[];
}

function scaled(timing: StreamingToolsTiming, factor: number): StreamingToolsTiming {
  return {
    callAAtMs: Math.round(timing.callAAtMs * factor),
    toolAMs: Math.round(timing.toolAMs * factor),
    callBAtMs: Math.round(timing.callBAtMs * factor),
    toolBMs: Math.round(timing.toolBMs * factor),
  };
}

/**
 * W2: wall time of the streaming-tools scenario per system, alternating which goes first,
 * after one warm-up run at a tenth of the timing. Contract: throws on a wrong answer.
 */
export async function measureStreamingWallTime(
  systems: readonly CoreSystem[],
  options: StreamingWallTimeOptions,
): Promise<StreamingWallTimeResult[]> {
  const warmupTiming = scaled(options.timing, 0.1);
  const runners = systems.map((system) => ({
    system: system.name,
    warmup: system.prepare(streamingTools(warmupTiming)),
    run: system.prepare(streamingTools(options.timing)),
  }));
  for (const runner of runners) {
    expectAnswer(runner.system, "W2", await runner.warmup(), streamingToolsAnswer(warmupTiming));
  }
  const samples = new Map<string, number[]>(runners.map((runner) => [runner.system, []]));
  const expected = streamingToolsAnswer(options.timing);
  for (let round = 0; round < options.rounds; round++) {
    for (const runner of rotated(runners, round)) {
      const start = performance.now();
      const answer = await runner.run();
      samples.get(runner.system)?.push(performance.now() - start);
      expectAnswer(runner.system, "W2", answer, expected);
    }
  }
  return runners.map((runner) => {
    const roundMs = samples.get(runner.system) ?? [];
    return { system: runner.system, wallMs: median(roundMs), roundMs };
  });
}
