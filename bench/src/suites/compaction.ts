import { type CompactionTierRun, type CompactionWait, runCompactionTiers } from "../measure/compaction-tiers.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";

const LATENCY_MS = 200;

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Milliseconds; under 10 with two decimals (tier 1's wait is a fraction of one). */
function ms(value: number | undefined): string {
  if (value === undefined) return "n/a";
  return value < 10 ? value.toFixed(2) : formatNumber(value);
}

function waitRow(name: string, waits: readonly CompactionWait[]): string[] {
  return [name, String(waits.length), ms(median(waits.map((w) => w.waitMs))), ms(median(waits.map((w) => w.turnMs)))];
}

/** The tables of the two conversations: the wait at each tier, and the share tier 1 served. */
export function compactionTables(tierTwoOnly: CompactionTierRun, withMemory: CompactionTierRun): ReportTable[] {
  const tierOne = withMemory.compactions.filter((c) => c.tier === 1);
  const tierTwo = [...tierTwoOnly.compactions, ...withMemory.compactions.filter((c) => c.tier === 2)];
  const share = withMemory.compactions.length === 0 ? 0 : tierOne.length / withMemory.compactions.length;
  return [
    {
      title: `Wait at a compaction, model latency fixed at ${LATENCY_MS} ms per call`,
      headers: ["compaction", "count", "wait at the compaction p50 (ms)", "its turn p50 (ms)"],
      rows: [
        waitRow("tier 1: the kept session-memory summary", tierOne),
        waitRow("tier 2: summarised by a model call", tierTwo),
        ["turn without a compaction", String(withMemory.plainTurnMs.length), "-", ms(median(withMemory.plainTurnMs))],
      ],
      notes: [
        "Wait: compaction_start → compaction, before the turn's own model call (the user sees no answer meanwhile).",
        "Tier 2 rows pool the tier-2-only conversation's compactions and the fallbacks of the one with session memory.",
      ],
    },
    {
      title: "Share of compactions tier 1 served over a 30-turn conversation",
      headers: ["conversation", "compactions", "tier 1", "tier 2", "tier 1 share", "refresh calls (off the turn)"],
      rows: [
        [
          "tier 2 only",
          String(tierTwoOnly.compactions.length),
          "0",
          String(tierTwoOnly.compactions.length),
          "0 %",
          "0",
        ],
        [
          "with session memory (5 000 tokens / 10 tool calls or a natural break)",
          String(withMemory.compactions.length),
          String(tierOne.length),
          String(withMemory.compactions.length - tierOne.length),
          `${(share * 100).toFixed(0)} %`,
          String(withMemory.refreshes),
        ],
      ],
      notes: ["40 000-token window (threshold 20 000), prompts ~1 200 tokens, answers ~600, tier 2 keeps 6 000."],
    },
  ];
}

/** `pnpm bench compaction`: tier-1 (session memory) vs tier-2 compaction (issue #34 requirement 1). */
export const compactionSuite: BenchSuite = {
  name: "compaction",
  description: "wait at a compaction: tier 1 (kept session-memory summary) vs tier 2 (summary call), 30-turn chat",
  async run(progress) {
    progress("30-turn conversation, tier 2 only");
    const tierTwoOnly = await runCompactionTiers(false, { latencyMs: LATENCY_MS });
    progress("30-turn conversation with a session memory");
    const withMemory = await runCompactionTiers(true, { latencyMs: LATENCY_MS });
    return { suite: "compaction", tables: compactionTables(tierTwoOnly, withMemory) };
  },
};
