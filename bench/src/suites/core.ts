import { BARE_TRANSCRIPT, type IdleAgentHeapResult, measureIdleAgentHeap } from "../measure/idle-agent-heap.js";
import { type LoopOverheadResult, measureLoopOverhead } from "../measure/loop-overhead.js";
import { measureStreamingWallTime, type StreamingWallTimeResult } from "../measure/streaming-wall-time.js";
import { formatNumber, formatRatio } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import { aiSdk } from "../systems/ai-sdk.js";
import type { CoreSystem, UnavailableSystem } from "../systems/core-system.js";
import { CHORUS_NAME, loadChorusSystem } from "../systems/load-chorus.js";
import { piAgentCore } from "../systems/pi-agent-core.js";
import { idealWallMs, postStreamWallMs, STREAMING_TOOLS_TIMING } from "../workloads/streaming-tools.js";
import type { BenchSuite } from "./bench-suite.js";

const W1 = { runs: 2000, rounds: 7, warmupRuns: 500, sliceRuns: 250 };
const W1_GOAL_RATIO = 0.75;
const W2_ROUNDS = 3;
const W2_GOAL_MS = 1155;
const MEMORY = { agents: 200, transcriptLength: 50, rounds: 3 };

type SystemEntry = CoreSystem | UnavailableSystem;

function isAvailable(entry: SystemEntry): entry is CoreSystem {
  return !("unavailable" in entry);
}

function verdict(met: boolean): string {
  return met ? "met" : "MISSED";
}

function loopOverheadTable(entries: SystemEntry[], results: LoopOverheadResult[]): ReportTable {
  const pi = results.find((r) => r.system === piAgentCore.name);
  const rows = entries.map((entry) => {
    if (!isAvailable(entry)) return [entry.name, entry.unavailable];
    const result = results.find((r) => r.system === entry.name);
    if (!result || !pi) return [entry.name, "n/a"];
    const cpuRatio = result.cpuMicrosPerRun / pi.cpuMicrosPerRun;
    const wallRatio = result.wallMicrosPerRun / pi.wallMicrosPerRun;
    const goal =
      entry.name === CHORUS_NAME ? `≤ ${formatRatio(W1_GOAL_RATIO)}: ${verdict(cpuRatio <= W1_GOAL_RATIO)}` : "";
    return [
      entry.name,
      formatNumber(result.cpuMicrosPerRun),
      formatRatio(cpuRatio),
      formatNumber(result.wallMicrosPerRun),
      formatRatio(wallRatio),
      goal,
    ];
  });
  return {
    title: `W1 loop overhead: ${formatNumber(W1.runs, 0)} runs of prompt → one tool call → final answer, zero-latency model`,
    headers: ["system", "CPU µs/run", "vs pi-agent-core", "wall µs/run", "vs pi (wall)", "goal (CPU)"],
    rows,
    notes: [
      `median of ${W1.rounds} rounds after ${W1.warmupRuns} warm-up runs each; in a round the systems take turns every ${W1.sliceRuns} runs`,
      "every event consumed; CPU = process user+system time, all threads (close to wall time on an idle machine, barely moved by other load)",
    ],
  };
}

function streamingTable(entries: SystemEntry[], results: StreamingWallTimeResult[]): ReportTable {
  const ideal = idealWallMs(STREAMING_TOOLS_TIMING);
  const rows = entries.map((entry) => {
    if (!isAvailable(entry)) return [entry.name, entry.unavailable];
    const result = results.find((r) => r.system === entry.name);
    if (!result) return [entry.name, "n/a"];
    const goal =
      entry.name === CHORUS_NAME ? `≤ ${formatNumber(W2_GOAL_MS, 0)} ms: ${verdict(result.wallMs <= W2_GOAL_MS)}` : "";
    const rounds = result.roundMs.map((ms) => formatNumber(ms, 0)).join(" / ");
    return [entry.name, formatNumber(result.wallMs, 0), rounds, formatRatio(result.wallMs / ideal), goal];
  });
  const t = STREAMING_TOOLS_TIMING;
  return {
    title: `W2 streaming tools: call A (${t.toolAMs} ms tool) at ${t.callAAtMs} ms, call B (${t.toolBMs} ms tool) at ${t.callBAtMs} ms`,
    headers: ["system", "wall ms", "rounds (ms)", "vs ideal", "goal"],
    rows,
    notes: [
      `ideal ${formatNumber(ideal, 0)} ms (each tool starts when its call arrives); post-stream execution ${formatNumber(postStreamWallMs(t), 0)} ms`,
      `median of ${W2_ROUNDS} alternating rounds after a warm-up at a tenth of the timing; second turn is zero-latency`,
    ],
  };
}

function memoryTable(entries: SystemEntry[], results: IdleAgentHeapResult[]): ReportTable {
  const bare = results.find((r) => r.subject === BARE_TRANSCRIPT)?.bytesPerAgent ?? 0;
  const kb = (bytes: number) => `${formatNumber(bytes / 1024)} KB`;
  const rows: string[][] = [[BARE_TRANSCRIPT, kb(bare), ""]];
  for (const entry of entries) {
    if (!isAvailable(entry)) {
      rows.push([entry.name, entry.unavailable]);
      continue;
    }
    const result = results.find((r) => r.subject === entry.name);
    if (!result) {
      rows.push([entry.name, "n/a (stateless: the app holds the messages)"]);
      continue;
    }
    rows.push([entry.name, kb(result.bytesPerAgent), kb(result.bytesPerAgent - bare)]);
  }
  return {
    title: `Memory: heap per idle agent holding a ${MEMORY.transcriptLength}-message transcript`,
    headers: ["system", "heap/agent", "over bare transcript"],
    rows,
    notes: [
      `heapUsed delta over ${MEMORY.agents} agents between forced GCs (node --expose-gc), median of ${MEMORY.rounds} rounds`,
    ],
  };
}

/** `pnpm bench core`: W1 loop overhead, W2 streaming tools and idle-agent memory. */
export const coreSuite: BenchSuite = {
  name: "core",
  description: "agent loop: @chorus/core vs pi-agent-core vs the Vercel AI SDK (W1, W2, memory)",
  async run(progress) {
    const entries: SystemEntry[] = [await loadChorusSystem(), piAgentCore, aiSdk];
    const systems = entries.filter(isAvailable);
    for (const entry of entries)
      if (!isAvailable(entry)) progress(`${entry.name}: ${entry.unavailable}: ${entry.detail}`);

    progress(`W1 loop overhead: ${W1.rounds} rounds × ${W1.runs} runs × ${systems.length} systems`);
    const loop = await measureLoopOverhead(systems, W1);
    progress(`W2 streaming tools: ${W2_ROUNDS} rounds × ${systems.length} systems`);
    const streaming = await measureStreamingWallTime(systems, { timing: STREAMING_TOOLS_TIMING, rounds: W2_ROUNDS });
    progress(`memory: ${MEMORY.rounds} rounds × ${MEMORY.agents} agents`);
    const memory = measureIdleAgentHeap(systems, MEMORY);

    return {
      suite: "core",
      tables: [loopOverheadTable(entries, loop), streamingTable(entries, streaming), memoryTable(entries, memory)],
    };
  },
};
