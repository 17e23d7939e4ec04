import { DEFAULT_LEASE_MS } from "@chorus/store-postgres";
import {
  type ClusterBenchOptions,
  DEFAULT_CLUSTER_OPTIONS,
  runClusterBench,
  type ThroughputRow,
} from "../cluster/run-cluster-bench.js";
import { median, percentile } from "../measure/stats.js";
import { formatNumber, formatRatio } from "../report/format-number.js";
import type { BenchSuite } from "./bench-suite.js";

/**
 * Reads `--chats N`, `--messages N`, `--kills N`, `--lease-ms N` (default: the store's), `--instances N` (PostgreSQL
 * rows 1 … N, default 3), `--paired-rounds N` (SQLite ×1 and PostgreSQL ×1 in turns, default 5), `--cpu-prof DIR` (the PostgreSQL instances profile themselves into DIR). Contract: throws
 * naming a bad value.
 */
export function clusterOptions(flags: ReadonlyMap<string, readonly string[]>): ClusterBenchOptions {
  const whole = (flag: string, fallback: number, min: number): number => {
    const text = flags.get(flag)?.at(-1);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${flag} must be a whole number ≥ ${min}, got ${text}`);
    return value;
  };
  const cpuProfileDir = flags.get("cpu-prof")?.at(-1);
  return {
    chats: whole("chats", DEFAULT_CLUSTER_OPTIONS.chats, 1),
    messagesPerChat: whole("messages", DEFAULT_CLUSTER_OPTIONS.messagesPerChat, 1),
    kills: whole("kills", DEFAULT_CLUSTER_OPTIONS.kills, 0),
    leaseMs: flags.has("lease-ms") ? whole("lease-ms", 0, 300) : DEFAULT_CLUSTER_OPTIONS.leaseMs,
    maxInstances: whole("instances", DEFAULT_CLUSTER_OPTIONS.maxInstances, 1),
    pairedRounds: whole("paired-rounds", DEFAULT_CLUSTER_OPTIONS.pairedRounds, 0),
    ...(cpuProfileDir === undefined ? {} : { cpuProfileDir }),
  };
}

const metOrMissed = (met: boolean): string => (met ? "met" : "MISSED");

/** PostgreSQL ×1 ÷ SQLite ×1 against issue #33's goal (≥ 0.80×) and issue #18's (≥ 0.50×). */
function ratioGoals(ratio: number): string {
  return `goal ≥ 0.80× (#33): ${metOrMissed(ratio >= 0.8)}; ≥ 0.50× (#18): ${metOrMissed(ratio >= 0.5)}`;
}

/** Round trips per owner-taken message of every PostgreSQL row against issue #33's goal (≤ 3). */
function ownerTakenGoal(rows: readonly ThroughputRow[]): string {
  const measured = rows.filter((row) => row.ownerTakenRoundTripsPerMessage !== undefined);
  if (measured.length === 0) return "";
  const each = measured.map((row) => `${row.instances}: ${formatNumber(row.ownerTakenRoundTripsPerMessage ?? 0)}`);
  const met = measured.every((row) => (row.ownerTakenRoundTripsPerMessage ?? 0) <= 3);
  return `Round trips per owner-taken message (instances: round trips) ${each.join(", ")} — goal ≤ 3: ${metOrMissed(met)}`;
}

/**
 * Issue #18's cluster benchmark: `chorus start` processes against the testkit fakes (Telegram webhook through a
 * round-robin balancer), 1 on SQLite vs 1, 2, 3 on one PostgreSQL; failover after kill -9; round trips per message.
 */
export const clusterSuite: BenchSuite = {
  name: "cluster",
  description:
    "chorus start ×1 on SQLite vs ×1/2/3 on PostgreSQL (cluster): msg/s, p99, round trips/msg; kill -9 failover p50/p99",
  async run(progress, flags) {
    const options = clusterOptions(flags);
    const result = await runClusterBench(options, progress);
    const sqlite = result.throughput.find((row) => row.label === "SQLite")?.messagesPerSecond;
    const onePostgres = result.throughput.find((row) => row.instances === 1 && row.label !== "SQLite");
    const failover = result.failoverMs;
    const p99 = failover.length === 0 ? Number.NaN : percentile(failover, 0.99);
    const ratios = result.paired.map((round) => round.postgres / round.sqlite).sort((a, b) => a - b);
    const pairedRatio = ratios.length === 0 ? Number.NaN : median(ratios);
    return {
      suite: "cluster",
      tables: [
        {
          title: `Cluster: ${options.chats} chats × ${options.messagesPerChat} messages per row (Telegram webhook, fake model)`,
          headers: [
            "store",
            "instances",
            "msg/s",
            "vs SQLite",
            "p50 ms",
            "p99 ms",
            "answered",
            "doubled",
            "PG round trips/msg",
            "owner-taken",
          ],
          rows: result.throughput.map((row) => [
            row.label,
            String(row.instances),
            formatNumber(row.messagesPerSecond),
            sqlite === undefined ? "" : formatRatio(row.messagesPerSecond / sqlite),
            formatNumber(row.p50Ms),
            formatNumber(row.p99Ms),
            `${row.replies}/${row.injected}`,
            String(row.duplicates),
            row.roundTripsPerMessage === undefined ? "" : formatNumber(row.roundTripsPerMessage),
            row.ownerTakenRoundTripsPerMessage === undefined ? "" : formatNumber(row.ownerTakenRoundTripsPerMessage),
          ]),
          notes: [
            "All processes (instances, balancer, fakes, PostgreSQL) share this machine's cores.",
            "Round trips: pg_stat_database xact_commit + xact_rollback of the run's database over the timed window, minus the idle rate (lease beats, sweeps); a group commit's pipelined batch is one transaction and one round trip, shared by its messages; pg_stat_statements is not preloaded here.",
            "Owner-taken: the same over a second window of fresh chats whose updates the balancer routes to their session's owner (with 1 instance, the timed window itself).",
            ownerTakenGoal(result.throughput),
            onePostgres === undefined || sqlite === undefined
              ? ""
              : `1 PostgreSQL instance / 1 SQLite instance: ${formatRatio(onePostgres.messagesPerSecond / sqlite)} — ${ratioGoals(onePostgres.messagesPerSecond / sqlite)}`,
          ].filter((note) => note !== ""),
        },
        ...(result.paired.length === 0
          ? []
          : [
              {
                title: `Paired rounds: 1 SQLite instance and 1 PostgreSQL instance (cluster) measured in turns, ${options.chats} chats × ${options.messagesPerChat} messages each`,
                headers: ["round", "SQLite msg/s", "PostgreSQL msg/s", "PostgreSQL / SQLite"],
                rows: result.paired.map((round, i) => [
                  String(i + 1),
                  formatNumber(round.sqlite),
                  formatNumber(round.postgres),
                  formatRatio(round.postgres / round.sqlite),
                ]),
                notes: [
                  `Median of the per-round ratios: ${formatRatio(pairedRatio)} — ${ratioGoals(pairedRatio)}. Both bots run through all rounds; the fake Telegram's webhook points at one at a time, the first alternating, each on fresh chats after a 1-message warm-up.`,
                ],
              },
            ]),
        {
          title: `Failover: kill -9 of one of ${options.maxInstances} instances (leaseMs ${options.leaseMs ?? `${DEFAULT_LEASE_MS}, the default`}) → first answer from another instance`,
          headers: ["kills", "answered", "p50 ms", "p99 ms", "max ms", "goal p99 ≤ 5000 ms"],
          rows: [
            [
              String(options.kills),
              String(failover.length),
              formatNumber(percentile(failover, 0.5)),
              formatNumber(p99),
              formatNumber(failover.at(-1) ?? Number.NaN),
              Number.isNaN(p99) ? "" : p99 <= 5000 ? "met" : "MISSED",
            ],
          ],
          notes: [
            "Each kill: SIGKILL an instance, then send a message (through the balancer, which skips the dead port) to a chat whose session's shard it held; measured from the kill to the answer arriving at the fake Telegram. The instance is started again before the next kill.",
          ],
        },
      ],
    };
  },
};
