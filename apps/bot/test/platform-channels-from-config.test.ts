import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeDiscord, startFakeSlack, startFakeTelegram, startNetworkGate } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BotConfigInput } from "../src/config/bot-config-schema.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { BotRuntime, type BotRuntimeOptions } from "../src/runtime/bot-runtime.js";
import { silentLogger } from "./support/silent-logger.js";

let dir: string;
let runtime: BotRuntime | undefined;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-platforms-"));
});
afterEach(async () => {
  await runtime?.shutdown();
  await Promise.all(closers.splice(0).map((close) => close()));
  await rm(dir, { recursive: true, force: true });
});

describe("platform channels built from the config", () => {
  it("Discord, Slack and Telegram accounts from one config all answer a DM through the demo model", async () => {
    const [discord, slack, telegram] = await Promise.all([
      startFakeDiscord({ heartbeatIntervalMs: 1_000 }),
      startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 }),
      startFakeTelegram(),
    ]);
    closers.push(
      () => discord.close(),
      () => slack.close(),
      () => telegram.close(),
    );
    runtime = demoRuntime({
      channels: {
        discord: [{ accountId: "dc", token: discord.token, restApi: discord.restApi }],
        slack: [{ accountId: "sl", botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl }],
        telegram: [{ accountId: "tg", token: telegram.token, apiRoot: telegram.apiRoot }],
      },
      policies: { discord: { dmPolicy: "open" }, slack: { dmPolicy: "open" }, telegram: { dmPolicy: "open" } },
    });
    await runtime.start();
    expect([...runtime.channels.keys()]).toEqual(["discord/dc", "slack/sl", "telegram/tg"]);
    await slack.waitForSocket();

    await discord.injectDm({ content: "help" });
    await slack.injectDm({ text: "help" });
    await telegram.injectDm({ text: "help" });

    const discordDm = discord.dmChannel().id;
    await expect
      .poll(() =>
        discord
          .conversation(discordDm)
          .filter((m) => m.author.id === discord.bots[0]?.user.id)
          .map((m) => m.content)
          .join("\n"),
      )
      .toContain("What this demo can do");
    await expect
      .poll(() =>
        slack
          .conversation(slack.dmChannel())
          .filter((m) => m.bot_id !== undefined)
          .map((m) => m.text)
          .join("\n"),
      )
      .toContain("What this demo can do");
    await expect
      .poll(() =>
        telegram
          .conversation(telegram.user.id)
          .filter((m) => m.from?.is_bot === true)
          .map((m) => m.text)
          .join("\n"),
      )
      .toContain("What this demo can do");
  });

  it("a channel whose platform is unreachable at boot is tried again until it starts, then answers", async () => {
    const telegram = await startFakeTelegram();
    closers.push(() => telegram.close());
    // Telegram cannot be reached at boot (every connection is cut at once) until the test opens the way.
    const gate = await startNetworkGate(telegram.apiRoot, { open: false });
    closers.push(() => gate.close());
    runtime = demoRuntime(
      {
        channels: {
          webchat: [{ accountId: "local", port: 0 }],
          telegram: [{ accountId: "tg", token: telegram.token, apiRoot: gate.url }],
        },
        policies: { telegram: { dmPolicy: "open" } },
      },
      { channelRetryMs: 50 },
    );
    await runtime.start();
    expect([...runtime.channels.keys()]).toEqual(["webchat/local"]);
    expect(runtime.readiness().detail).toMatchObject({ waiting: ["telegram/tg"] });
    expect(runtime.banner()).toContain("not connected: retrying in the background");

    // Tried again meanwhile, in vain; once Telegram can be reached, the next try starts the channel.
    await expect.poll(() => gate.refused, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect([...runtime.channels.keys()]).toEqual(["webchat/local"]);
    gate.open();
    await expect.poll(() => [...(runtime?.channels.keys() ?? [])], { timeout: 5_000 }).toContain("telegram/tg");
    expect(runtime.readiness().detail).toMatchObject({ waiting: [] });
    await telegram.injectDm({ text: "help" });
    await expect
      .poll(
        () =>
          telegram
            .conversation(telegram.user.id)
            .filter((m) => m.from?.is_bot === true)
            .map((m) => m.text)
            .join("\n"),
        { timeout: 5_000 },
      )
      .toContain("What this demo can do");
  });
});

/** A BotRuntime on the demo model and a memory store, with `input`'s channels and policies. */
function demoRuntime(
  input: Pick<BotConfigInput, "channels" | "policies">,
  options: Partial<BotRuntimeOptions> = {},
): BotRuntime {
  const parsed = parseBotConfig({
    dataDir: dir,
    store: { kind: "memory" },
    agents: [{ id: "assistant", model: "demo" }],
    ...input,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return new BotRuntime({
    config: parsed.config,
    source: "test",
    logger: silentLogger(),
    cwd: dir,
    demoTokenDelayMs: 0,
    ...options,
  });
}
