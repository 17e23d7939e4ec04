import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySessionStore, SqliteSessionStore } from "@chorus/gateway";
import { formatRatio } from "../report/format-number.js";
import type { BenchSuite } from "./bench-suite.js";
import { gatewayTable, runGatewayWorkload } from "./gateway.js";

const GOAL_RATIO = 0.7;

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
      return { suite: "store", tables: [table] };
    } finally {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    }
  },
};
