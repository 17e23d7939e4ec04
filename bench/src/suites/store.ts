import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySessionStore } from "@chorus/gateway";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { measurePruneBacklog, type PruneBacklogResult } from "../measure/prune-backlog.js";
import { formatNumber, formatRatio } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";
import { gatewayTable, runGatewayWorkload } from "./gateway.js";

const GOAL_RATIO = 0.7;
/** Event ids and sent outbox entries in the housekeeping backlog (each). */
const BACKLOG_ROWS = 50_000;

/**
 * Issue #7's store benchmark: the gateway workload on `MemorySessionStore` and on `SqliteSessionStore` (a fresh file
 * in a temporary folder per round, every guarantee on) in the same run, with SQLite's throughput relative to memory.
 */
export const storeSuite: BenchSuite = {
  name: "store",
  description: "gateway workload on the in-memory store vs SQLite (msg/s, p99, ratio; goal SQLite ≥ 0.7× memory)",
  async run(progress) {
    const folders: string[] = [];
    try {
      const rows = await runGatewayWorkload(
        [
          { name: "MemorySessionStore", create: () => new MemorySessionStore() },
          {
            name: "SqliteSessionStore",
            create: () => {
              const folder = mkdtempSync(join(tmpdir(), "chorus-bench-store-"));
              folders.push(folder);
              return SqliteSessionStore.open({ path: join(folder, "chorus.db") });
            },
          },
        ],
        progress,
      );
      const table = gatewayTable(rows);
      const memory = rows[0]?.result?.messagesPerSecond;
      const sqlite = rows[1]?.result?.messagesPerSecond;
      if (memory !== undefined && sqlite !== undefined) {
        const ratio = sqlite / memory;
        table.notes = [
          ...table.notes,
          `SQLite / memory: ${formatRatio(ratio)} — goal ≥ ${formatRatio(GOAL_RATIO)}: ${ratio >= GOAL_RATIO ? "met" : "MISSED"}`,
          "SQLite: WAL, synchronous NORMAL, a fresh file per round; each caller's write resolves only after its COMMIT",
        ];
      }
      progress(
        `housekeeping: pruning ${formatNumber(BACKLOG_ROWS, 0)} + ${formatNumber(BACKLOG_ROWS, 0)} expired rows`,
      );
      const memoryPrune = await measurePruneBacklog(() => {
        const clock = { now: Date.now() };
        return { store: new MemorySessionStore({ now: () => clock.now }), clock };
      }, BACKLOG_ROWS);
      const sqlitePrune = await measurePruneBacklog(() => {
        const folder = mkdtempSync(join(tmpdir(), "chorus-bench-prune-"));
        folders.push(folder);
        const clock = { now: Date.now() };
        return { store: SqliteSessionStore.open({ path: join(folder, "chorus.db"), now: () => clock.now }), clock };
      }, BACKLOG_ROWS);
      return {
        suite: "store",
        tables: [
          table,
          pruneTable([
            ["MemorySessionStore", memoryPrune],
            ["SqliteSessionStore", sqlitePrune],
          ]),
        ],
      };
    } finally {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    }
  },
};

/** The housekeeping table: how long a sweep of a day's backlog takes and how long it holds the event loop. */
function pruneTable(rows: [string, PruneBacklogResult][]): ReportTable {
  return {
    title: `Store housekeeping: one sweep over ${formatNumber(BACKLOG_ROWS, 0)} expired event ids + ${formatNumber(BACKLOG_ROWS, 0)} sent outbox entries`,
    headers: ["store", "rows removed", "steps", "sweep ms", "rows/s", "longest event-loop block ms"],
    rows: rows.map(([store, result]) => {
      const removed = result.inboundEvents + result.sentOutbox;
      return [
        store,
        formatNumber(removed, 0),
        formatNumber(result.steps, 0),
        formatNumber(result.sweepMs, 0),
        formatNumber(removed / (result.sweepMs / 1000), 0),
        formatNumber(result.maxEventLoopDelayMs, 1),
      ];
    }),
    notes: [
      "StoreHousekeeper with its defaults (500 rows a step, each step its own store call and COMMIT); the event loop's delay sampled every 1 ms during the sweep",
    ],
  };
}
