import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import type { FakeLlmServer } from "@chorus/testkit";
import type { BenchSystem, RunningSystem } from "./bench-system.js";
import type { ChatSdkConcurrency } from "./chat-sdk-bot-config.js";
import { startBenchModel } from "./fake-model.js";
import {
  combineSlices,
  type RunPlan,
  type SliceResult,
  type SystemRunResult,
  timeSlice,
  warmUp,
} from "./measure-system-run.js";
import type { SideBySidePlatformName } from "./side-by-side-systems.js";
import { type SlackBenchPlatform, startSlackBenchPlatform } from "./slack-bench-platform.js";
import { startTelegramBenchPlatform, type TelegramBenchPlatform } from "./telegram-bench-platform.js";

/** What to run. */
export interface SideBySideRun {
  readonly platforms: readonly SideBySidePlatformName[];
  readonly systems: readonly BenchSystem[];
  readonly rounds: number;
  readonly plan: RunPlan;
  /** Profile every system run into this folder (node --cpu-prof). */
  readonly cpuProfileDir?: string;
  /** The `concurrency` strategy the Chat SDK bots run with. */
  readonly chatSdkConcurrency: ChatSdkConcurrency;
}

/** Every round's result of one system on one platform. */
export interface SideBySideSeries {
  readonly platform: SideBySidePlatformName;
  readonly platformLabel: string;
  readonly system: BenchSystem;
  readonly rounds: SystemRunResult[];
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % Math.max(1, items.length);
  return [...items.slice(shift), ...items.slice(0, shift)];
}

function startPlatform(name: SideBySidePlatformName): Promise<TelegramBenchPlatform | SlackBenchPlatform> {
  return name === "telegram" ? startTelegramBenchPlatform() : startSlackBenchPlatform();
}

/**
 * Runs every system on every platform, `rounds` times. Per round and platform every system's bot is started (a fresh
 * process each) and warmed up, then the timed part is played in slices — slice n sends every chat's n-th message —
 * and the systems take turns slice by slice (the fake pointed at one bot at a time), the first one rotating from
 * slice to slice and round to round, so a busy moment of the shared machine hits them alike.
 * Contract: every fake and bot process is closed/stopped when it resolves or rejects.
 */
export async function runSideBySide(run: SideBySideRun, progress: (line: string) => void): Promise<SideBySideSeries[]> {
  const model: FakeLlmServer = await startBenchModel();
  const platforms: Array<TelegramBenchPlatform | SlackBenchPlatform> = [];
  const series = new Map<string, SideBySideSeries>();
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const sliceWorkload = { ...run.plan.timed, messagesPerChat: 1 };
  try {
    for (const name of run.platforms) platforms.push(await startPlatform(name));
    for (let round = 0; round < run.rounds; round++) {
      for (const platform of platforms) {
        const running: Array<{ system: BenchSystem; bot: RunningSystem }> = [];
        try {
          for (const system of rotate(run.systems, round)) {
            const cpuProfileDir =
              run.cpuProfileDir === undefined
                ? undefined
                : await mkdtemp(join(run.cpuProfileDir, `${platform.name}-${system.id}-`));
            const bot = await system.start({
              platform,
              model,
              runId: `${stamp}-${round}-${platform.name}-${system.id}`,
              chatSdkConcurrency: run.chatSdkConcurrency,
              ...(cpuProfileDir === undefined ? {} : { cpuProfileDir }),
            });
            running.push({ system, bot });
          }
          for (const { system, bot } of running) await warmUp(system, bot, platform, run.plan);
          const slices = new Map<string, SliceResult[]>();
          for (let n = 0; n < run.plan.timed.messagesPerChat; n++) {
            for (const { system, bot } of rotate(running, n)) {
              const slice = await timeSlice(system, bot, platform, sliceWorkload, run.plan.settleMs);
              slices.set(system.id, [...(slices.get(system.id) ?? []), slice]);
            }
          }
          for (const { system } of running) {
            const result = combineSlices(slices.get(system.id) ?? []);
            record(series, platform, system, result);
            const c = result.counts;
            progress(
              `${platform.label} · ${system.label} · round ${round + 1}/${run.rounds}: ${result.messagesPerSecond.toFixed(0)} msg/s, p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms, CPU ${result.cpuMsPerMessage.toFixed(2)} ms/msg (bench ${result.harnessCpuMsPerMessage.toFixed(2)}), ${c.replies}/${c.duplicates}/${c.losses}, strays ${c.strays}`,
            );
          }
        } finally {
          for (const { bot } of running) await bot.stop();
        }
      }
    }
  } finally {
    for (const platform of platforms) await platform.close();
    await model.close();
  }
  const ordered: SideBySideSeries[] = [];
  for (const name of run.platforms) {
    for (const system of run.systems) {
      const entry = series.get(`${name}/${system.id}`);
      if (entry !== undefined) ordered.push(entry);
    }
  }
  return ordered;
}

function record(
  series: Map<string, SideBySideSeries>,
  platform: TelegramBenchPlatform | SlackBenchPlatform,
  system: BenchSystem,
  result: SystemRunResult,
): void {
  const key = `${platform.name}/${system.id}`;
  const entry = series.get(key) ?? { platform: platform.name, platformLabel: platform.label, system, rounds: [] };
  entry.rounds.push(result);
  series.set(key, entry);
}
