import { median } from "../measure/stats.js";
import { formatNumber, formatRatio } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import { CHORUS_BASELINE_ID } from "./chorus-system.js";
import type { SideBySideSeries } from "./run-side-by-side.js";
import { BASELINE_SYSTEM_ID, ECHO_SYSTEM_ID, LEAN_SYSTEM_ID } from "./side-by-side-systems.js";

/** One system's medians over its rounds. */
interface Medians {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpu: number;
}

function medians(series: SideBySideSeries): Medians {
  return {
    rate: median(series.rounds.map((r) => r.messagesPerSecond)),
    p50: median(series.rounds.map((r) => r.p50Ms)),
    p99: median(series.rounds.map((r) => r.p99Ms)),
    cpu: median(series.rounds.map((r) => r.cpuMsPerMessage)),
  };
}

function totals(series: SideBySideSeries): string {
  let replies = 0;
  let duplicates = 0;
  let losses = 0;
  for (const round of series.rounds) {
    replies += round.counts.replies;
    duplicates += round.counts.duplicates;
    losses += round.counts.losses;
  }
  return `${replies}/${duplicates}/${losses}`;
}

/** The lowest and highest round's msg/s: how much the machine moved the median. */
function spread(series: SideBySideSeries): string {
  const rates = series.rounds.map((r) => r.messagesPerSecond);
  return `${formatNumber(Math.min(...rates), 0)}–${formatNumber(Math.max(...rates), 0)}`;
}

type RoundMetric = (round: SideBySideSeries["rounds"][number]) => number;
const msgPerSecond: RoundMetric = (round) => round.messagesPerSecond;

/**
 * The median over rounds of `series`'s `metric` (msg/s unless given) ÷ `base`'s in the same round: the systems of a
 * round ran interleaved slice by slice, so each round's ratio is a paired comparison, steadier than the ratio of the
 * two medians.
 */
function pairedRatio(series: SideBySideSeries, base: SideBySideSeries, metric: RoundMetric = msgPerSecond): number {
  const ratios = series.rounds.flatMap((round, index) => {
    const other = base.rounds[index];
    return other === undefined || metric(other) === 0 ? [] : [metric(round) / metric(other)];
  });
  return ratios.length === 0 ? Number.NaN : median(ratios);
}

/**
 * Issue #33: Chorus ÷ the leanest Chat SDK bot that calls the model, msg/s, CPU ms/msg, p50, p99, paired by round, and
 * requirement 2's goals against it (msg/s ≥ 1.0×, CPU ms/msg ≤ 1.0×, p99 ≤ 1.0×).
 */
function leanPeerLine(platformLabel: string, series: ReadonlyMap<string, SideBySideSeries>): string[] {
  const chorus = series.get("chorus");
  const lean = series.get(LEAN_SYSTEM_ID);
  if (chorus === undefined || lean === undefined) return [];
  const msgs = pairedRatio(chorus, lean);
  const cpu = pairedRatio(chorus, lean, (r) => r.cpuMsPerMessage);
  const p99 = pairedRatio(chorus, lean, (r) => r.p99Ms);
  return [
    `${platformLabel} Chorus ÷ ${lean.system.label}: msg/s ${formatRatio(msgs)}, CPU ms/msg ${formatRatio(cpu)}, p50 ${formatRatio(pairedRatio(chorus, lean, (r) => r.p50Ms))}, p99 ${formatRatio(p99)}`,
    `${platformLabel} goals vs ${lean.system.label} (#33): msg/s ≥ 1.00× ${met(msgs >= 1)}, CPU ms/msg ≤ 1.00× ${met(cpu <= 1)}, p99 ≤ 1.00× ${met(p99 <= 1)}`,
  ];
}

const met = (ok: boolean): string => (ok ? "met" : "MISSED");

/** Issue #24 requirement 3 for one platform, one line per goal; empty when Chorus or a yardstick did not run. */
function goalLines(
  platformLabel: string,
  rows: ReadonlyMap<string, Medians>,
  series: ReadonlyMap<string, SideBySideSeries>,
): string[] {
  const chorus = rows.get("chorus");
  const base = rows.get(BASELINE_SYSTEM_ID);
  const echo = rows.get(ECHO_SYSTEM_ID);
  const chorusSeries = series.get("chorus");
  const lines: string[] = [];
  if (chorus !== undefined && base !== undefined && chorusSeries !== undefined) {
    const ratio = pairedRatio(chorusSeries, series.get(BASELINE_SYSTEM_ID) as SideBySideSeries);
    lines.push(
      `${platformLabel} goal msg/s ≥ 1.00× Chat SDK + AI SDK (Redis): ${met(ratio >= 1)} (${formatRatio(ratio)})`,
      `${platformLabel} goal CPU ms/msg ≤ Chat SDK + AI SDK (Redis): ${met(chorus.cpu <= base.cpu)} (${chorus.cpu.toFixed(2)} vs ${base.cpu.toFixed(2)})`,
      `${platformLabel} goal p50 ≤ Chat SDK + AI SDK (Redis): ${met(chorus.p50 <= base.p50)} (${chorus.p50.toFixed(0)} vs ${base.p50.toFixed(0)} ms)`,
      `${platformLabel} goal p99 ≤ Chat SDK + AI SDK (Redis): ${met(chorus.p99 <= base.p99)} (${chorus.p99.toFixed(0)} vs ${base.p99.toFixed(0)} ms)`,
    );
  }
  const before = rows.get(CHORUS_BASELINE_ID);
  const beforeSeries = series.get(CHORUS_BASELINE_ID);
  if (chorus !== undefined && before !== undefined && chorusSeries !== undefined && beforeSeries !== undefined) {
    const ratio = pairedRatio(chorusSeries, beforeSeries);
    // CPU per message moves with the machine's load from round to round too: paired like msg/s.
    const cpu = median(
      chorusSeries.rounds.flatMap((round, index) => {
        const other = beforeSeries.rounds[index]?.cpuMsPerMessage;
        return other === undefined || other === 0 ? [] : [round.cpuMsPerMessage / other];
      }),
    );
    lines.push(
      `${platformLabel} this build vs the baseline build: msg/s ${formatRatio(ratio)}, CPU ms/msg ${formatRatio(cpu)} (medians ${chorus.cpu.toFixed(2)} vs ${before.cpu.toFixed(2)}); within 3 %: ${met(ratio >= 0.97 && cpu <= 1.03)}`,
    );
  }
  if (chorus !== undefined && echo !== undefined && chorusSeries !== undefined) {
    const ratio = pairedRatio(chorusSeries, series.get(ECHO_SYSTEM_ID) as SideBySideSeries);
    lines.push(
      `${platformLabel} goal msg/s ≥ 0.80× Chat SDK echo (Redis): ${met(ratio >= 0.8)} (${formatRatio(ratio)})`,
    );
  }
  return lines;
}

/**
 * The side-by-side table: per platform and system the medians of the rounds, the ratios to Chat SDK + AI SDK with Redis
 * state and to Chat SDK + fetch with memory state, replies/duplicates/losses summed over the rounds, and issue #24's
 * goals and issue #33's Chorus ÷ Chat SDK + fetch ratios under it.
 */
export function sideBySideTable(series: readonly SideBySideSeries[], rounds: number, messages: number): ReportTable {
  const rows: string[][] = [];
  const goals: string[] = [];
  const platforms = [...new Set(series.map((s) => s.platformLabel))];
  const allRounds = series.flatMap((s) => s.rounds);
  const harness = allRounds.map((r) => r.harnessCpuMsPerMessage);
  const strays = allRounds.reduce((sum, r) => sum + r.counts.strays, 0);
  for (const platformLabel of platforms) {
    const ofPlatform = series.filter((s) => s.platformLabel === platformLabel);
    const byId = new Map(ofPlatform.map((s) => [s.system.id, medians(s)] as const));
    const seriesById = new Map(ofPlatform.map((s) => [s.system.id, s] as const));
    const baseSeries = seriesById.get(BASELINE_SYSTEM_ID);
    const leanSeries = seriesById.get(LEAN_SYSTEM_ID);
    for (const s of ofPlatform) {
      const m = byId.get(s.system.id) as Medians;
      rows.push([
        s.system.label,
        platformLabel,
        formatNumber(m.rate, 0),
        baseSeries === undefined ? "n/a" : formatRatio(pairedRatio(s, baseSeries)),
        leanSeries === undefined ? "n/a" : formatRatio(pairedRatio(s, leanSeries)),
        formatNumber(m.p50, 0),
        formatNumber(m.p99, 0),
        m.cpu.toFixed(2),
        totals(s),
        spread(s),
      ]);
    }
    goals.push(...goalLines(platformLabel, byId, seriesById));
    goals.push(...leanPeerLine(platformLabel, seriesById));
  }
  return {
    title: `Side by side: Chat SDK vs chorus start, each bot its own process (${messages} timed messages per run)`,
    headers: [
      "system",
      "platform",
      "msg/s",
      "vs Chat SDK+AI SDK (Redis)",
      "vs Chat SDK+fetch (memory)",
      "p50 ms",
      "p99 ms",
      "CPU ms/msg",
      "replies/dups/losses",
      "msg/s min–max",
    ],
    rows,
    notes: [
      `medians of ${rounds} round(s); in a round every bot runs at once and they take turns slice by slice (slice n = every chat's n-th message), the first one rotating; replies/dups/losses summed over the rounds`,
      "vs columns, msg/s goals and the Chorus ÷ Chat SDK + fetch ratios: the median of each round's ratio (the systems of a round ran interleaved, so each round is a paired comparison)",
      "latency: injection into the fake → the complete reply (message or final edit) arriving at the fake",
      "CPU: the bot process's own user + system time (all threads, /proc/<pid>/stat) over the timed part, per message",
      harness.length === 0
        ? "no runs"
        : `the bench process itself (fakes, harness) used ${Math.min(...harness).toFixed(2)}–${Math.max(...harness).toFixed(2)} CPU ms per message on the same cores; ${strays} outbound message(s) named no key of their run`,
      ...goals,
    ],
  };
}
