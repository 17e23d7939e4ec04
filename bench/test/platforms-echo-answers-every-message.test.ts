import { describe, expect, it } from "vitest";
import { discordEcho } from "../src/platforms/discord-echo.js";
import type { EchoPlatform } from "../src/platforms/echo-bot.js";
import { type GatewayPieces, loadGatewayPieces } from "../src/platforms/gateway-echo.js";
import { type ChannelFactories, loadChannelFactories } from "../src/platforms/load-channels.js";
import { measureEcho } from "../src/platforms/measure-echo.js";
import { slackEcho } from "../src/platforms/slack-echo.js";
import { telegramEcho } from "../src/platforms/telegram-echo.js";

const TINY = { messages: 30, warmupMessages: 5, rounds: 1, window: 10 };

async function load(): Promise<{ factories: ChannelFactories; gateway: GatewayPieces }> {
  const factories = await loadChannelFactories();
  const gateway = await loadGatewayPieces();
  if ("unavailable" in factories) throw new Error(factories.unavailable);
  if ("unavailable" in gateway) throw new Error(gateway.unavailable);
  return { factories, gateway };
}

// measureEcho throws when any system leaves a message unanswered or echoes the wrong one.
async function answersEveryMessage<Fake>(platform: EchoPlatform<Fake>): Promise<void> {
  const results = await measureEcho(platform, TINY, () => {});
  expect(results.map((result) => result.system)).toHaveLength(3);
  expect(results.every((result) => result.roundsPerSecond.length === 1)).toBe(true);
}

describe("the platforms suite's echo bots answer every message, once, with its own text", () => {
  it("Discord: raw library, channel and Gateway", async () => {
    const { factories, gateway } = await load();
    await answersEveryMessage(discordEcho(factories, gateway));
  }, 30_000);

  it("Slack: raw library, channel and Gateway", async () => {
    const { factories, gateway } = await load();
    await answersEveryMessage(slackEcho(factories, gateway));
  }, 30_000);

  it("Telegram: raw library, channel and Gateway", async () => {
    const { factories, gateway } = await load();
    await answersEveryMessage(telegramEcho(factories, gateway));
  }, 30_000);
});
