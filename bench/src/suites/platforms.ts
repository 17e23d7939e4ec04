import { discordEcho } from "../platforms/discord-echo.js";
import { loadGatewayPieces } from "../platforms/gateway-echo.js";
import { loadChannelFactories } from "../platforms/load-channels.js";
import { type EchoResult, type EchoWorkload, measureEcho } from "../platforms/measure-echo.js";
import { slackEcho } from "../platforms/slack-echo.js";
import { telegramEcho } from "../platforms/telegram-echo.js";
import { formatNumber, formatRatio } from "../report/format-number.js";
import { machineInfo } from "../report/machine.js";
import type { ReportTable } from "../report/report-types.js";
import { sideBySideOptions } from "../side-by-side/side-by-side-options.js";
import { sideBySidePart } from "../side-by-side/side-by-side-part.js";
import type { BenchSuite } from "./bench-suite.js";

const WORKLOAD: EchoWorkload = { messages: 3000, warmupMessages: 500, rounds: 5, window: 100 };
const GOAL_RATIO = 0.7;

function table(
  platform: string,
  results: readonly EchoResult[],
  unavailable: string | undefined,
  gatewayUnavailable: string | undefined,
): ReportTable {
  const raw = results[0];
  const rows = results.map((result, index) => {
    const ratio = raw === undefined ? 0 : result.messagesPerSecond / raw.messagesPerSecond;
    const goal = index === 0 ? "" : `≥ ${formatRatio(GOAL_RATIO)}: ${ratio >= GOAL_RATIO ? "met" : "MISSED"}`;
    return [
      result.system,
      formatNumber(result.messagesPerSecond, 0),
      index === 0 ? "1.00×" : formatRatio(ratio),
      formatNumber(result.p99Ms, 0),
      result.roundsPerSecond.map((rate) => formatNumber(rate, 0)).join(" / "),
      goal,
    ];
  });
  if (unavailable !== undefined) rows.push(["Chorus channel", unavailable]);
  if (unavailable === undefined && gatewayUnavailable !== undefined)
    rows.push(["Gateway (SQLite)", gatewayUnavailable]);
  return {
    title: `${platform}: echo of ${formatNumber(WORKLOAD.messages, 0)} messages, raw library vs the Chorus channel vs the full Gateway`,
    headers: ["system", "msg/s", "vs raw", "p99 ms", "rounds (msg/s)", "goal"],
    rows,
    notes: [
      `median of ${WORKLOAD.rounds} rounds (order rotating) after ${WORKLOAD.warmupMessages} warm-up messages each; ${WORKLOAD.window} injections in flight`,
      "latency: injection into the fake → the echo's send call arriving at the fake; fake and bot share this process",
      "Gateway row: the full pipeline (durable dedupe, policy, routing, lane, a turn on a zero-latency scripted model, SQLite store, outbox), block replies, queue mode followup, no session rate cap",
    ],
  };
}

/** Per platform: the raw library's echo bot vs the same traffic through the Chorus Channel and the full Gateway. */
export const platformsSuite: BenchSuite = {
  name: "platforms",
  description:
    "Discord/Slack/Telegram echo: raw library vs Chorus channel vs Gateway; then Chat SDK vs chorus start side by side",
  async run(progress, flags) {
    const options = sideBySideOptions(flags);
    const cores = `${machineInfo().cores} cores`;
    if (options.only) {
      progress(`side by side on ${cores}`);
      return { suite: "platforms", tables: await sideBySidePart(options, progress) };
    }
    const loaded = await loadChannelFactories();
    const factories = "unavailable" in loaded ? undefined : loaded;
    const gatewayLoaded = await loadGatewayPieces();
    const gateway = "unavailable" in gatewayLoaded ? undefined : gatewayLoaded;
    const unavailable = "unavailable" in loaded ? loaded.unavailable : undefined;
    const gatewayUnavailable = "unavailable" in gatewayLoaded ? gatewayLoaded.unavailable : undefined;
    const tables: ReportTable[] = [
      table(
        "Discord",
        await measureEcho(discordEcho(factories, gateway), WORKLOAD, progress),
        unavailable,
        gatewayUnavailable,
      ),
      table(
        "Slack",
        await measureEcho(slackEcho(factories, gateway), WORKLOAD, progress),
        unavailable,
        gatewayUnavailable,
      ),
      table(
        "Telegram",
        await measureEcho(telegramEcho(factories, gateway), WORKLOAD, progress),
        unavailable,
        gatewayUnavailable,
      ),
    ];
    progress(`side by side on ${cores}`);
    tables.push(...(await sideBySidePart(options, progress)));
    return { suite: "platforms", tables };
  },
};
