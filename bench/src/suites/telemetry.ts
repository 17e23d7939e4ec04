import {
  BASELINE_NAME,
  CURRENT_NAME,
  loadBaselineCore,
  measureTelemetryOverhead,
  type TelemetryOverheadResult,
} from "../measure/telemetry-overhead.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";

const W1 = { runs: 2000, rounds: 7, warmupRuns: 500, sliceRuns: 250 };
const GOAL_PERCENT = 3;

function percent(value: number, of: number): string {
  const change = ((value - of) / of) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)} %`;
}

function overheadTable(result: TelemetryOverheadResult, baselineDir: string | undefined): ReportTable {
  const find = (rows: TelemetryOverheadResult["off"], name: string) => rows.find((row) => row.system === name);
  const offBase = find(result.off, BASELINE_NAME);
  const offNow = find(result.off, CURRENT_NAME);
  const onBase = find(result.on, BASELINE_NAME);
  const onNow = find(result.on, CURRENT_NAME);
  const rows: string[][] = [];
  if (offBase !== undefined)
    rows.push([
      `${BASELINE_NAME} (before)`,
      formatNumber(offBase.cpuMicrosPerRun),
      formatNumber(offBase.wallMicrosPerRun),
      "",
      "",
    ]);
  if (offNow !== undefined) {
    const vs =
      offBase === undefined ? "n/a (no --baseline-core)" : percent(offNow.cpuMicrosPerRun, offBase.cpuMicrosPerRun);
    const goal =
      offBase === undefined
        ? ""
        : `≤ +${GOAL_PERCENT} %: ${(offNow.cpuMicrosPerRun - offBase.cpuMicrosPerRun) / offBase.cpuMicrosPerRun <= GOAL_PERCENT / 100 ? "met" : "MISSED"}`;
    rows.push([
      `${CURRENT_NAME}, tracing not configured`,
      formatNumber(offNow.cpuMicrosPerRun),
      formatNumber(offNow.wallMicrosPerRun),
      vs,
      goal,
    ]);
  }
  if (onNow !== undefined && offNow !== undefined) {
    // The baseline, measured in both phases, corrects for the machine's load changing between them.
    const drift = onBase !== undefined && offBase !== undefined ? onBase.cpuMicrosPerRun - offBase.cpuMicrosPerRun : 0;
    const extra = onNow.cpuMicrosPerRun - offNow.cpuMicrosPerRun - drift;
    rows.push([
      `${CURRENT_NAME}, SDK + in-memory exporter`,
      formatNumber(onNow.cpuMicrosPerRun),
      formatNumber(onNow.wallMicrosPerRun),
      `+${formatNumber(extra)} µs/run (${formatNumber(extra / 2)} µs per model call)`,
      "",
    ]);
  }
  return {
    title: "Telemetry overhead on W1 (prompt → one tool call → final answer, zero-latency model)",
    headers: ["system", "CPU µs/run", "wall µs/run", "vs before / overhead", "goal"],
    rows,
    notes: [
      `median of ${W1.rounds} rounds × ${W1.runs} runs, ${W1.warmupRuns} warm-up runs; systems interleaved every ${W1.sliceRuns} runs; with a baseline, the mean of both orders (baseline first, then current first)`,
      `a run is 2 model calls and 1 tool call: ${formatNumber(result.spansPerRun)} spans per run with the SDK (invoke_agent, 2 × chat, execute_tool)`,
      baselineDir === undefined
        ? "no --baseline-core: pass a built @chorus/core dist of the commit to compare with (see bench/README.md)"
        : `baseline: ${baselineDir}`,
    ],
  };
}

/** `pnpm bench telemetry`: what OpenTelemetry costs the loop, off (no SDK) and on (SDK + in-memory exporter). */
export const telemetrySuite: BenchSuite = {
  name: "telemetry",
  description: "W1 with tracing not configured vs a baseline core (goal ≤ +3 %), and the cost per run with an SDK",
  async run(progress, flags) {
    const baselineDir = flags.get("baseline-core")?.[0];
    const baseline = baselineDir === undefined ? undefined : await loadBaselineCore(baselineDir);
    progress(`telemetry: W1 ${W1.rounds} rounds without an SDK, then ${W1.rounds} with one`);
    const result = await measureTelemetryOverhead(baseline, W1);
    return { suite: "telemetry", tables: [overheadTable(result, baselineDir)] };
  },
};
