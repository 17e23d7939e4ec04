import type { EchoPlatform } from "../platforms/echo-bot.js";
import { percentile } from "./stats.js";

let runCounter = 0;

/**
 * Closed loop: `window` workers each inject a message and wait for its reply before the next, so no message waits
 * behind another (what is timed is the pipeline, not a queue). Contract: resolves with each key's injection time
 * (epoch ms) once every message was answered; rejects after `timeoutMs`.
 */
async function injectClosedLoop<Fake>(
  platform: EchoPlatform<Fake>,
  fake: Fake,
  count: number,
  window: number,
  timeoutMs = 120_000,
): Promise<Map<string, number>> {
  const run = ++runCounter;
  const injectedAt = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  let seen = platform.sendCalls(fake).length;
  let polling = true;
  const deadline = Date.now() + timeoutMs;
  const poll = async (): Promise<void> => {
    while (polling) {
      const calls = platform.sendCalls(fake);
      for (; seen < calls.length; seen++) {
        const key = platform.sentText(calls[seen] as (typeof calls)[number]).replace(/^echo: /, "");
        waiting.get(key)?.();
        waiting.delete(key);
      }
      if (Date.now() > deadline) throw new Error(`${platform.name}: replies missing after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const poller = poll();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const key = `r${run}m${index}`;
      const answered = new Promise<void>((resolve) => waiting.set(key, resolve));
      injectedAt.set(key, Date.now());
      await platform.inject(fake, index % platform.chats, key);
      await Promise.race([answered, poller]);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(window, count) }, worker));
  } finally {
    polling = false;
  }
  await poller;
  return injectedAt;
}

/** Gateway overhead per message on one platform: latency to the first reply chunk minus the model's time. */
export interface GatewayLatencyResult {
  readonly platform: string;
  readonly system: string;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** How much traffic, and the model's fixed time to its (only) token. */
export interface GatewayLatencyWorkload {
  readonly messages: number;
  readonly warmupMessages: number;
  /** Messages in flight; at most the gateway's concurrent turns, so nothing waits for a slot. */
  readonly window: number;
  readonly modelMs: number;
}

/**
 * Starts the platform's system named `systemName` on a fresh fake, warms it up, then injects `messages` and takes,
 * per message, the time from the injection to its reply's send call reaching the fake, minus `modelMs`.
 * Contract: throws when a reply is missing or answers another message.
 */
export async function measureGatewayLatency<Fake>(
  platform: EchoPlatform<Fake>,
  systemName: string,
  workload: GatewayLatencyWorkload,
): Promise<GatewayLatencyResult> {
  const system = platform.systems.find((candidate) => candidate.name === systemName);
  if (system === undefined) throw new Error(`${platform.name} has no system "${systemName}"`);
  const fake = await platform.startFake();
  try {
    const bot = await system.start(fake);
    try {
      await injectClosedLoop(platform, fake, workload.warmupMessages, workload.window);
      const base = platform.sendCalls(fake).length;
      const injectedAt = await injectClosedLoop(platform, fake, workload.messages, workload.window);
      const overheads: number[] = [];
      for (const call of platform.sendCalls(fake).slice(base)) {
        const key = platform.sentText(call).replace(/^echo: /, "");
        const at = injectedAt.get(key);
        if (at === undefined) throw new Error(`${system.name} answered "${key}", which was never sent in this run`);
        overheads.push(call.at - at - workload.modelMs);
        injectedAt.delete(key);
      }
      if (injectedAt.size > 0) throw new Error(`${system.name} left ${injectedAt.size} messages unanswered`);
      overheads.sort((a, b) => a - b);
      return {
        platform: platform.name,
        system: system.name,
        samples: overheads.length,
        p50Ms: percentile(overheads, 0.5),
        p99Ms: percentile(overheads, 0.99),
        maxMs: overheads.at(-1) ?? 0,
      };
    } finally {
      await bot.stop();
    }
  } finally {
    await platform.closeFake(fake);
  }
}
