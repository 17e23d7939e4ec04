import { type CacheRequestRow, runCacheConversation } from "../measure/cache-conversation.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";

const GOAL_PERCENT = 90;

function share(part: number, whole: number): string {
  return whole === 0 ? "n/a" : `${((part / whole) * 100).toFixed(1)} %`;
}

/** Totals over rows: bytes sent, bytes in the identical prefix, bytes a cache could serve. */
export function cacheTotals(rows: readonly CacheRequestRow[]): { total: number; prefix: number; cacheable: number } {
  let total = 0;
  let prefix = 0;
  let cacheable = 0;
  for (const row of rows) {
    total += row.totalBytes;
    prefix += row.prefixBytes;
    cacheable += row.cacheableBytes;
  }
  return { total, prefix, cacheable };
}

function summaryTable(rows: readonly CacheRequestRow[], compactions: number): ReportTable {
  const groups: [string, CacheRequestRow[]][] = [
    ["every request", [...rows]],
    [
      "main conversation, outside the request after a compaction",
      rows.filter((r) => r.kind === "main" && !r.afterCompaction),
    ],
    ["main conversation, the request after a compaction", rows.filter((r) => r.afterCompaction)],
    ["sub-agent requests", rows.filter((r) => r.kind === "sub-agent")],
    ["summariser requests", rows.filter((r) => r.kind === "summariser")],
    ["goal: every request outside the one after a compaction", rows.filter((r) => !r.afterCompaction)],
  ];
  const goal = cacheTotals(groups[5]?.[1] ?? []);
  return {
    title: "Prompt cache: share of each request's input that a cache could serve",
    headers: ["requests", "count", "input (kB)", "identical prefix", "cacheable (behind a breakpoint)"],
    rows: groups.map(([name, group]) => {
      const t = cacheTotals(group);
      return [
        name,
        String(group.length),
        formatNumber(t.total / 1000),
        share(t.prefix, t.total),
        share(t.cacheable, t.total),
      ];
    }),
    notes: [
      `Goal ≥ ${GOAL_PERCENT} % cacheable outside the request right after a compaction: ${
        goal.total > 0 && (goal.cacheable / goal.total) * 100 >= GOAL_PERCENT ? "met" : "MISSED"
      }. Compactions: ${compactions}.`,
      "Bytes of the serialized request in Anthropic's cache order (tools → system → messages), cache_control removed; bytes ∝ tokens.",
      "Identical prefix: leading blocks byte-identical to the previous request of the same conversation (main, sub-agent, summariser).",
      "Cacheable: that prefix up to the last cache_control breakpoint of the previous request (what it wrote to the cache).",
      "A conversation's first request has nothing before it (0 %).",
    ],
  };
}

function breakpointTable(rows: readonly CacheRequestRow[]): ReportTable {
  const interesting = rows.filter(
    (row, i) =>
      i < 3 || row.kind !== "main" || row.afterCompaction || row.firstDifference?.startsWith("messages") === false,
  );
  return {
    title:
      "Where the breakpoints sit and where each request first differs (first requests, sub-agent, summariser, compaction, breaks)",
    headers: ["#", "conversation", "input (kB)", "cacheable", "breakpoints", "first difference"],
    rows: interesting
      .slice(0, 20)
      .map((row) => [
        String(row.index),
        row.afterCompaction ? `${row.kind} (after compaction)` : row.kind,
        formatNumber(row.totalBytes / 1000),
        share(row.cacheableBytes, row.totalBytes),
        row.breakpoints.join(", "),
        row.first
          ? "(first request of its conversation)"
          : (row.firstDifference ?? "(none: previous request is a prefix)"),
      ]),
    notes: ["In a main request outside compaction the first difference is the newly appended message."],
  };
}

/** `pnpm bench cache`: prompt-cache discipline of a 30-turn conversation (issue #22 item 10). */
export const cacheSuite: BenchSuite = {
  name: "cache",
  description:
    "prompt-cache prefix of a 30-turn conversation (tools, reminders, sub-agent, compaction) on the fake Anthropic",
  async run(progress) {
    progress("running a 30-turn conversation against the fake Anthropic server");
    const { rows, compactions } = await runCacheConversation();
    progress(`${rows.length} requests, ${compactions} compaction(s)`);
    return { suite: "cache", tables: [summaryTable(rows, compactions), breakpointTable(rows)] };
  },
};
