import { createDiscordChannel } from "@chorus/channel-discord";
import { createSlackChannel } from "@chorus/channel-slack";
import { startChannelGateway } from "@chorus/gateway-testing";
import { DISCORD_STRANGER, SLACK_STRANGER, startFakeDiscord, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const EPHEMERAL = 64;

describe("platform commands are answered through their interaction", () => {
  it("Discord: a native /agents in a guild channel gets an ephemeral fleet for an admin, a refusal for anyone else", async () => {
    const f = cleanup.track(await startFakeDiscord());
    const channel = createDiscordChannel({ accountId: "dc", token: f.token, restApi: f.restApi });
    cleanup.track(
      await startChannelGateway({
        channels: [channel],
        config: { channels: [{ channel: "discord", dmPolicy: "open", groupPolicy: "open", admins: [f.user.id] }] },
        script: [],
      }),
    );

    await f.injectSlashCommand({ name: "agents" });
    const answer = await f.waitForCall("createInteractionResponse", 1, 5_000);
    expect(answer.body).toMatchObject({ type: 4, data: { flags: EPHEMERAL } });
    expect(JSON.stringify(answer.body)).toContain("**Fleet**: 1 agent(s)");

    await f.injectSlashCommand({ name: "agents", user: DISCORD_STRANGER });
    const refusal = await f.waitForCall("createInteractionResponse", 2, 5_000);
    expect(refusal.body).toMatchObject({
      type: 4,
      data: { content: "You are not authorised to use /agents.", flags: EPHEMERAL },
    });

    // Nothing was posted publicly: the only bot messages in the channel are the two ephemeral answers.
    const botId = f.bots[0]!.user.id;
    const posted = f.conversation(f.guild.general.id).filter((m) => m.author.id === botId);
    expect(posted).toHaveLength(2);
    expect(posted.every((m) => ((m.flags ?? 0) & EPHEMERAL) !== 0)).toBe(true);
    expect(f.callsTo("createMessage")).toHaveLength(0);
  });

  it("Slack: /agents gets an ephemeral fleet through response_url for an admin, a refusal for anyone else", async () => {
    const f = cleanup.track(await startFakeSlack({ mode: "socket", pingIntervalMs: 1_000 }));
    cleanup.track(
      await startChannelGateway({
        channels: [
          createSlackChannel({
            accountId: "sl",
            mode: "socket",
            botToken: f.botToken,
            appToken: f.appToken,
            slackApiUrl: f.apiUrl,
          }),
        ],
        config: { channels: [{ channel: "slack", dmPolicy: "open", groupPolicy: "open", admins: [f.user.id] }] },
        script: [],
      }),
    );
    await f.waitForSocket();

    await f.injectSlashCommand({ command: "/agents" });
    const answer = await f.waitForCall("response_url", 1, 5_000);
    expect(answer.body).toMatchObject({ response_type: "ephemeral" });
    expect(String((answer.body as { text?: unknown }).text)).toContain("*Fleet*: 1 agent(s)");

    await f.injectSlashCommand({ command: "/agents", user: SLACK_STRANGER });
    const refusal = await f.waitForCall("response_url", 2, 5_000);
    expect(refusal.body).toMatchObject({ response_type: "ephemeral", text: "You are not authorised to use /agents." });

    // Nothing went to the channel itself.
    expect(f.conversation(f.channels.general).filter((m) => m.bot_id !== undefined)).toEqual([]);
    expect(f.callsTo("chat.postMessage")).toHaveLength(0);
  });
});
