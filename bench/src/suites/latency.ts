import { captureTelemetry } from "@chorus/testkit";
import { type GatewayLatencyResult, measureGatewayLatency } from "../measure/gateway-latency.js";
import { discordEcho } from "../platforms/discord-echo.js";
import type { EchoPlatform } from "../platforms/echo-bot.js";
import { type GatewayPieces, loadGatewayPieces } from "../platforms/gateway-echo.js";
import { type ChannelFactories, loadChannelFactories } from "../platforms/load-channels.js";
import { slackEcho } from "../platforms/slack-echo.js";
import { telegramEcho } from "../platforms/telegram-echo.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";
import { type LatencyPlatformName, latencyOptions } from "./latency-options.js";

const GATEWAY_SYSTEM = "Gateway (SQLite)";
const WORKLOAD = { messages: 240, warmupMessages: 24, window: 8, modelMs: 500 };
const GOAL = { p50Ms: 15, p99Ms: 50 };

/** The Gateway pieces with a model whose only token comes after `modelMs`. */
export function withModelLatency(pieces: GatewayPieces, modelMs: number): GatewayPieces {
  return {
    ...pieces,
    scriptedStreamFn: (script) =>
      pieces.scriptedStreamFn((context) => ({ blocks: [{ type: "text", text: script(context), delayMs: modelMs }] })),
  };
}

type PlatformOf = (factories: ChannelFactories, pieces: GatewayPieces) => EchoPlatform<unknown>;

const PLATFORMS: Record<LatencyPlatformName, PlatformOf> = {
  telegram: (factories, pieces) => telegramEcho(factories, pieces) as EchoPlatform<unknown>,
  discord: (factories, pieces) => discordEcho(factories, pieces) as EchoPlatform<unknown>,
  slack: (factories, pieces) => slackEcho(factories, pieces) as EchoPlatform<unknown>,
};

function latencyTable(
  rows: readonly { tracing: string; result: GatewayLatencyResult }[],
  workload: typeof WORKLOAD,
): ReportTable {
  return {
    title: `Gateway latency budget: platform delivery → first reply chunk at the platform, minus the model's ${WORKLOAD.modelMs} ms`,
    headers: ["platform", "telemetry", "p50 ms", "p99 ms", "max ms", "goal"],
    rows: rows.map(({ tracing, result }) => [
      result.platform,
      tracing,
      formatNumber(result.p50Ms, 0),
      formatNumber(result.p99Ms, 0),
      formatNumber(result.maxMs, 0),
      `≤ ${GOAL.p50Ms} / ${GOAL.p99Ms} ms: ${result.p50Ms <= GOAL.p50Ms && result.p99Ms <= GOAL.p99Ms ? "met" : "MISSED"}`,
    ]),
    notes: [
      `${workload.messages} messages per platform after ${workload.warmupMessages} warm-up ones, closed loop: ${WORKLOAD.window} chats at a time, each sending its next message once the last was answered (each its own session, below the gateway's 8 concurrent turns)`,
      `the full Gateway on the platform's Chorus channel against the testkit fake: durable SQLite store, dedupe, policy, routing, lane, turn, outbox; block replies (the first chunk is the reply); a scripted model answering after ${WORKLOAD.modelMs} ms`,
      "timestamps in ms (Date.now at injection and at the fake receiving the send call); the fake and the gateway share this process",
      "telemetry on: an SDK with an in-memory span exporter and a meter provider registered (measured after every platform ran without one)",
    ],
  };
}

/** `pnpm bench latency`: the gateway's own share of a reply's latency per platform, goal ≤ 15 ms p50 / 50 ms p99. */
export const latencySuite: BenchSuite = {
  name: "latency",
  description: "per platform fake: delivery → first reply chunk minus model time through the full Gateway (SQLite)",
  async run(progress, flags) {
    const options = latencyOptions(flags);
    const workload = {
      ...WORKLOAD,
      messages: options.messages ?? WORKLOAD.messages,
      warmupMessages: options.warmupMessages ?? WORKLOAD.warmupMessages,
    };
    const factories = await loadChannelFactories();
    const pieces = await loadGatewayPieces();
    if ("unavailable" in factories || "unavailable" in pieces) {
      const reason =
        "unavailable" in factories ? factories.unavailable : (pieces as { unavailable: string }).unavailable;
      return {
        suite: "latency",
        tables: [{ title: "Gateway latency budget", headers: ["why"], rows: [[reason]], notes: [] }],
      };
    }
    const delayed = withModelLatency(pieces, WORKLOAD.modelMs);
    const rows: { tracing: string; result: GatewayLatencyResult }[] = [];
    for (const telemetry of options.telemetry) {
      const tracing = telemetry === "off" ? "off" : "on (SDK)";
      // Once registered, the SDK stays the API's delegate: every "off" row runs before the first "on" one.
      const capture = telemetry === "off" ? undefined : captureTelemetry();
      try {
        for (const name of options.platforms) {
          const platform = PLATFORMS[name](factories, delayed);
          progress(`latency · ${platform.name} · telemetry ${tracing}`);
          const result = await measureGatewayLatency(platform, GATEWAY_SYSTEM, workload);
          progress(`  p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`);
          rows.push({ tracing, result });
          capture?.reset();
        }
      } finally {
        await capture?.stop();
      }
    }
    return { suite: "latency", tables: [latencyTable(rows, workload)] };
  },
};
