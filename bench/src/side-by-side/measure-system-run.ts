import type { BenchSystem, SystemContext } from "./bench-system.js";
import { type ChatWorkload, playChatWorkload, type WorkloadTarget } from "./chat-workload.js";
import { processCpuMs } from "./process-cpu.js";
import { type LedgerCounts, ReplyLedger } from "./reply-ledger.js";

/** Workload sizes of one run: a warm-up on its own chats, then the timed part. */
export interface RunPlan {
  readonly warmup: ChatWorkload;
  readonly timed: ChatWorkload;
  /** Wait after the last reply before counting, so a late duplicate is seen. */
  readonly settleMs: number;
}

/** What one run of one system on one platform measured. */
export interface SystemRunResult {
  readonly messagesPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The bot process's CPU time (user + system, all threads) over the timed part, per message. */
  readonly cpuMsPerMessage: number;
  /** The bench process's own CPU time (fakes, harness) over the timed part, per message: what it took from the bot. */
  readonly harnessCpuMsPerMessage: number;
  readonly counts: LedgerCounts;
  /** The timed part on the monotonic clock in µs (the clock V8's CPU profiles stamp their samples with). */
  readonly timedWindowUs: { readonly start: number; readonly end: number };
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/**
 * Starts the system, warms it up, times the workload while sampling its process's CPU time, and stops it.
 * Contract: throws (after stopping the bot) when the warm-up lost or duplicated a reply — a broken bot is not a
 * number; the timed part's losses and duplicates are reported, not thrown.
 */
export async function measureSystemRun(
  system: BenchSystem,
  context: SystemContext,
  plan: RunPlan,
): Promise<SystemRunResult> {
  const platform = context.platform;
  const target: WorkloadTarget = {
    inject: (chat, text) => platform.inject(chat, text),
    expectedReply: (text, key) => system.expectedReply(text, key),
  };
  const bot = await system.start(context);
  try {
    const warmup = new ReplyLedger();
    platform.onOutbound((message) => warmup.observe(message));
    await playChatWorkload(plan.warmup, target, warmup);
    await new Promise((resolve) => setTimeout(resolve, plan.settleMs));
    const warm = warmup.counts();
    if (warm.losses > 0 || warm.duplicates > 0) {
      throw new Error(
        `${system.label} on ${platform.label}: the warm-up lost ${warm.losses} and duplicated ${warm.duplicates} of ${warm.injected} replies — aborting`,
      );
    }
    const ledger = new ReplyLedger();
    platform.onOutbound((message) => ledger.observe(message));
    const cpuBefore = processCpuMs(bot.pid);
    const harnessBefore = process.cpuUsage();
    const windowStart = monotonicUs();
    const timing = await playChatWorkload(plan.timed, target, ledger);
    const cpuAfter = processCpuMs(bot.pid);
    const harness = process.cpuUsage(harnessBefore);
    const windowEnd = monotonicUs();
    await new Promise((resolve) => setTimeout(resolve, plan.settleMs));
    const counts = ledger.counts();
    const seconds = Math.max(1e-3, (timing.endedAt - timing.startedAt) / 1000);
    return {
      messagesPerSecond: counts.replies / seconds,
      p50Ms: percentile(timing.latencies, 0.5),
      p99Ms: percentile(timing.latencies, 0.99),
      cpuMsPerMessage: (cpuAfter - cpuBefore) / Math.max(1, counts.injected),
      harnessCpuMsPerMessage: (harness.user + harness.system) / 1000 / Math.max(1, counts.injected),
      counts,
      timedWindowUs: { start: windowStart, end: windowEnd },
    };
  } finally {
    platform.onOutbound(undefined);
    await bot.stop();
  }
}
