import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import type { FakeLlmServer } from "@chorus/testkit";
import type { BenchSystem, SystemContext } from "./bench-system.js";
import { startBenchModel } from "./fake-model.js";
import { measureSystemRun, type RunPlan, type SystemRunResult } from "./measure-system-run.js";
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
 * Runs every system on every platform, `rounds` times, interleaved: within a round each platform's systems run one
 * after the other, the first one rotating from round to round, so slow phases of a shared machine hit them alike.
 * Contract: every fake and bot process is closed/stopped when it resolves or rejects.
 */
export async function runSideBySide(run: SideBySideRun, progress: (line: string) => void): Promise<SideBySideSeries[]> {
  const model: FakeLlmServer = await startBenchModel();
  const platforms: Array<TelegramBenchPlatform | SlackBenchPlatform> = [];
  const series = new Map<string, SideBySideSeries>();
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  try {
    for (const name of run.platforms) platforms.push(await startPlatform(name));
    for (let round = 0; round < run.rounds; round++) {
      for (const platform of platforms) {
        for (const system of rotate(run.systems, round)) {
          const context: SystemContext = {
            platform,
            model,
            runId: `${stamp}-${round}-${platform.name}-${system.id}`,
            ...(run.cpuProfileDir === undefined
              ? {}
              : { cpuProfileDir: await mkdtemp(join(run.cpuProfileDir, `${platform.name}-${system.id}-`)) }),
          };
          const result = await measureSystemRun(system, context, run.plan);
          const key = `${platform.name}/${system.id}`;
          const entry = series.get(key) ?? {
            platform: platform.name,
            platformLabel: platform.label,
            system,
            rounds: [],
          };
          entry.rounds.push(result);
          series.set(key, entry);
          const c = result.counts;
          progress(
            `${platform.label} · ${system.label} · round ${round + 1}/${run.rounds}: ${result.messagesPerSecond.toFixed(0)} msg/s, p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms, CPU ${result.cpuMsPerMessage.toFixed(2)} ms/msg (bench ${result.harnessCpuMsPerMessage.toFixed(2)}), ${c.replies}/${c.duplicates}/${c.losses}, strays ${c.strays}`,
          );
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
