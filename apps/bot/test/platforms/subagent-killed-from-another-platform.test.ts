import { createDiscordChannel } from "@chorus/channel-discord";
import { createSlackChannel } from "@chorus/channel-slack";
import { createTelegramChannel } from "@chorus/channel-telegram";
import { scriptedStreamFn } from "@chorus/core/testing";
import { type ChannelGateway, startChannelGateway } from "@chorus/gateway-testing";
import {
  type FakeDiscord,
  type FakeSlack,
  type FakeTelegram,
  startFakeDiscord,
  startFakeSlack,
  startFakeTelegram,
} from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";

let running: ChannelGateway | undefined;
const fakes: Array<FakeDiscord | FakeSlack | FakeTelegram> = [];

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

describe("one gateway, three platforms", () => {
  it("a sub-agent started from a Telegram group is visible and killable through /agents in the admin's Discord DM", async () => {
    const telegram = await startFakeTelegram();
    const discord = await startFakeDiscord();
    const slack = await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 });
    fakes.push(telegram, discord, slack);
    // The researcher works until stopped: its model call never ends by itself (it does honour the abort).
    const researcherModel = scriptedStreamFn([{ fault: "hang" }]);
    running = await startChannelGateway({
      channels: [
        createTelegramChannel({ accountId: "tg", token: telegram.token, apiRoot: telegram.apiRoot }),
        createDiscordChannel({ accountId: "dc", token: discord.token, restApi: discord.restApi }),
        createSlackChannel({
          accountId: "sl",
          mode: "socket",
          botToken: slack.botToken,
          appToken: slack.appToken,
          slackApiUrl: slack.apiUrl,
        }),
      ],
      config: {
        channels: [
          { channel: "telegram", groupPolicy: "open", admins: [String(telegram.user.id)] },
          { channel: "discord", dmPolicy: "open", admins: [discord.user.id] },
          { channel: "slack", dmPolicy: "open" },
        ],
      },
      script: (_context, index) =>
        index === 0
          ? { toolCalls: [{ name: "spawn_agent", args: { agent: "researcher", task: "dig", mode: "background" } }] }
          : "I asked a researcher to dig.",
      gateway: {
        agents: {
          main: { subagents: { researcher: { description: "digs", tools: [], streamFn: researcherModel } } },
        },
      },
    });

    await telegram.injectMention({ text: "please research this" });
    await telegram.waitFor(
      (call) => call.method === "sendMessage" && JSON.stringify(call.body).includes("I asked a researcher"),
    );
    await expect.poll(() => researcherModel.calls.length).toBe(1);

    const dm = discord.dmChannel().id;
    const dmTexts = () =>
      discord
        .conversation(dm)
        .filter((m) => m.author.id === discord.bots[0]?.user.id)
        .map((m) => m.content)
        .join("\n")
        // Discord markdown escapes the underscores of run ids.
        .replaceAll("\\_", "_");
    await discord.injectDm({ content: "/agents" });
    await expect.poll(dmTexts).toMatch(/researcher · depth 1 · running/);
    const fleet = dmTexts();
    expect(fleet).toContain(`telegram ${telegram.group.id}`);
    const runId = /`([^`]+)` researcher · depth 1/.exec(fleet)?.[1];
    expect(runId).toBeDefined();

    await discord.injectDm({ content: `/agents kill ${runId}` });
    await expect.poll(dmTexts).toContain(`Stopped ${runId}`);
    await telegram.waitFor(
      (call) => call.method === "sendMessage" && JSON.stringify(call.body).includes("An administrator stopped"),
    );
    expect(running.gateway.runs.all().filter((run) => run.depth === 1)).toEqual([]);
  }, 20_000);
});
