import { percentile } from "../measure/stats.js";
import type { BenchPlatform } from "./bench-platform.js";
import type { BenchSystem, RunningSystem } from "./bench-system.js";
import { type ChatWorkload, playChatWorkload, type WorkloadTarget } from "./chat-workload.js";
import { processCpuMs } from "./process-cpu.js";
import { type LedgerCounts, ReplyLedger } from "./reply-ledger.js";

/** Workload sizes of one run: a warm-up on its own chats, then the timed part. */
export interface RunPlan {
  readonly warmup: ChatWorkload;
  /** Played in `messagesPerChat` slices: slice n sends every chat's n-th message (see run-side-by-side.ts). */
  readonly timed: ChatWorkload;
  /** Wait after the last reply before counting, so a late duplicate is seen. */
  readonly settleMs: number;
}

/** What one slice of the timed part measured. */
export interface SliceResult {
  /** Injection → reply, ms, one per answered message. */
  readonly latencies: readonly number[];
  readonly seconds: number;
  readonly botCpuMs: number;
  readonly benchCpuMs: number;
  readonly counts: LedgerCounts;
  /** The slice on the monotonic clock in µs (the clock V8's CPU profiles stamp their samples with). */
  readonly windowUs: { readonly start: number; readonly end: number };
}

/** What one round of one system on one platform measured (its slices together). */
export interface SystemRunResult {
  readonly messagesPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The bot process's CPU time (user + system, all threads) over its slices, per message. */
  readonly cpuMsPerMessage: number;
  /** The bench process's own CPU time (fakes, harness) over the slices, per message: what it took from the bot. */
  readonly harnessCpuMsPerMessage: number;
  readonly counts: LedgerCounts;
  /** From the first slice's start to the last slice's end, monotonic µs. */
  readonly timedWindowUs: { readonly start: number; readonly end: number };
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function targetOf(system: BenchSystem, platform: BenchPlatform): WorkloadTarget {
  return {
    inject: (chat, text) => platform.inject(chat, text),
    expectedReply: (text, key) => system.expectedReply(text, key),
  };
}

/**
 * Points the platform at the bot and plays the warm-up.
 * Contract: throws when the warm-up lost or duplicated a reply — a broken bot is not a number.
 */
export async function warmUp(
  system: BenchSystem,
  bot: RunningSystem,
  platform: BenchPlatform,
  plan: RunPlan,
): Promise<void> {
  await bot.activate();
  const ledger = new ReplyLedger();
  platform.onOutbound((message) => ledger.observe(message));
  try {
    await playChatWorkload(plan.warmup, targetOf(system, platform), ledger);
    await sleep(plan.settleMs);
  } finally {
    platform.onOutbound(undefined);
  }
  const counts = ledger.counts();
  if (counts.losses > 0 || counts.duplicates > 0) {
    throw new Error(
      `${system.label} on ${platform.label}: the warm-up lost ${counts.losses} and duplicated ${counts.duplicates} of ${counts.injected} replies — aborting`,
    );
  }
}

/**
 * Points the platform at the bot and plays one slice, sampling the bot's CPU time (from /proc) and the bench's own
 * right before the first injection and right after the last reply. Losses and duplicates are counted, not thrown.
 */
export async function timeSlice(
  system: BenchSystem,
  bot: RunningSystem,
  platform: BenchPlatform,
  slice: ChatWorkload,
  settleMs: number,
): Promise<SliceResult> {
  await bot.activate();
  const ledger = new ReplyLedger();
  platform.onOutbound((message) => ledger.observe(message));
  try {
    const cpuBefore = processCpuMs(bot.pid);
    const benchBefore = process.cpuUsage();
    const start = monotonicUs();
    const timing = await playChatWorkload(slice, targetOf(system, platform), ledger);
    const botCpuMs = processCpuMs(bot.pid) - cpuBefore;
    const bench = process.cpuUsage(benchBefore);
    const end = monotonicUs();
    await sleep(settleMs);
    return {
      latencies: timing.latencies,
      seconds: Math.max(1e-3, (timing.endedAt - timing.startedAt) / 1000),
      botCpuMs,
      benchCpuMs: (bench.user + bench.system) / 1000,
      counts: ledger.counts(),
      windowUs: { start, end },
    };
  } finally {
    platform.onOutbound(undefined);
  }
}

/** One round's numbers from its slices: replies over the slices' summed time, pooled latencies, summed CPU. */
export function combineSlices(slices: readonly SliceResult[]): SystemRunResult {
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const sum = (pick: (s: SliceResult) => number) => slices.reduce((total, s) => total + pick(s), 0);
  const counts: LedgerCounts = {
    injected: sum((s) => s.counts.injected),
    replies: sum((s) => s.counts.replies),
    duplicates: sum((s) => s.counts.duplicates),
    losses: sum((s) => s.counts.losses),
    strays: sum((s) => s.counts.strays),
  };
  const messages = Math.max(1, counts.injected);
  return {
    messagesPerSecond:
      counts.replies /
      Math.max(
        1e-3,
        sum((s) => s.seconds),
      ),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuMsPerMessage: sum((s) => s.botCpuMs) / messages,
    harnessCpuMsPerMessage: sum((s) => s.benchCpuMs) / messages,
    counts,
    timedWindowUs: {
      start: Math.min(...slices.map((s) => s.windowUs.start)),
      end: Math.max(...slices.map((s) => s.windowUs.end)),
    },
  };
}
