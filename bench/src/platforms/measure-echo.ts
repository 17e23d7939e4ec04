import { median } from "../measure/stats.js";
import type { EchoPlatform, EchoSystem } from "./echo-bot.js";

/** One system's echo numbers on one platform. */
export interface EchoResult {
  readonly system: string;
  /** Replies per second over the timed run (median of the rounds). */
  readonly messagesPerSecond: number;
  /** Injection → reply arriving at the fake, 99th percentile in ms (median of the rounds). */
  readonly p99Ms: number;
  readonly roundsPerSecond: readonly number[];
}

/** Workload sizes. */
export interface EchoWorkload {
  readonly messages: number;
  readonly warmupMessages: number;
  readonly rounds: number;
  /** Injections in flight at once. */
  readonly window: number;
}

let runCounter = 0;

/**
 * Runs every system of a platform against one fake: per round, each system (the first rotating) is started,
 * warmed up, timed over `messages` injected across the platform's chats, and stopped.
 * Contract: throws if a reply is missing or does not match what was sent (a wrong echo is not a number).
 */
export async function measureEcho<Fake>(
  platform: EchoPlatform<Fake>,
  workload: EchoWorkload,
  progress: (line: string) => void,
): Promise<EchoResult[]> {
  const fake = await platform.startFake();
  const perSystem = new Map<string, { rates: number[]; p99s: number[] }>();
  try {
    for (let round = 0; round < workload.rounds; round++) {
      const order = rotate(platform.systems, round);
      for (const system of order) {
        const { rate, p99 } = await timeOneRun(platform, fake, system, workload);
        progress(`${platform.name} · ${system.name} · round ${round + 1}: ${rate.toFixed(0)} msg/s, p99 ${p99} ms`);
        const entry = perSystem.get(system.name) ?? { rates: [], p99s: [] };
        entry.rates.push(rate);
        entry.p99s.push(p99);
        perSystem.set(system.name, entry);
      }
    }
  } finally {
    await platform.closeFake(fake);
  }
  return platform.systems.map((system) => {
    const entry = perSystem.get(system.name) ?? { rates: [0], p99s: [0] };
    return {
      system: system.name,
      messagesPerSecond: median(entry.rates),
      p99Ms: median(entry.p99s),
      roundsPerSecond: entry.rates,
    };
  });
}

async function timeOneRun<Fake>(
  platform: EchoPlatform<Fake>,
  fake: Fake,
  system: EchoSystem<Fake>,
  workload: EchoWorkload,
): Promise<{ rate: number; p99: number }> {
  const bot = await system.start(fake);
  try {
    await sendBatch(platform, fake, workload.warmupMessages, workload.window);
    const base = platform.sendCalls(fake).length;
    const { injectedAt, started } = await sendBatch(platform, fake, workload.messages, workload.window);
    const finished = performance.now();
    const latencies: number[] = [];
    for (const call of platform.sendCalls(fake).slice(base)) {
      const key = platform.sentText(call).replace(/^echo: /, "");
      const at = injectedAt.get(key);
      if (at === undefined) throw new Error(`${system.name} echoed "${key}", which was never sent in this run`);
      latencies.push(call.at - at);
      injectedAt.delete(key);
    }
    if (injectedAt.size > 0) throw new Error(`${system.name} left ${injectedAt.size} messages unanswered`);
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
    return { rate: workload.messages / ((finished - started) / 1000), p99 };
  } finally {
    await bot.stop();
  }
}

async function sendBatch<Fake>(
  platform: EchoPlatform<Fake>,
  fake: Fake,
  count: number,
  window: number,
): Promise<{ injectedAt: Map<string, number>; started: number }> {
  const run = ++runCounter;
  const base = platform.sendCalls(fake).length;
  const injectedAt = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const key = `r${run}m${index}`;
      injectedAt.set(key, Date.now());
      await platform.inject(fake, index % platform.chats, key);
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, count) }, worker));
  await platform.waitForSends(fake, base + count);
  return { injectedAt, started };
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = by % Math.max(1, items.length);
  return [...items.slice(shift), ...items.slice(0, shift)];
}
