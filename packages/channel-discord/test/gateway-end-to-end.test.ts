import { autonomyExtension } from "@chorus/extension-autonomy";
import { longMarkdownReply, modelInput, startChannelGateway } from "@chorus/gateway-testing";
import { DISCORD_STRANGER, type FakeDiscord, startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

async function start(script: Parameters<typeof startChannelGateway>[0]["script"], heartbeatIntervalMs?: number) {
  const f = cleanup.track(await startFakeDiscord(heartbeatIntervalMs === undefined ? {} : { heartbeatIntervalMs }));
  const channel = createDiscordChannel({ accountId: "dc", token: f.token, restApi: f.restApi });
  const running = cleanup.track(
    await startChannelGateway({
      channels: [channel],
      config: { channels: [{ channel: "discord", dmPolicy: "open", groupPolicy: "open", admins: [f.user.id] }] },
      script,
      // The native /goal and /usage are the autonomy extension's, as the bot composes it.
      gateway: { extensions: [autonomyExtension()] },
    }),
  );
  return { f, running, botId: f.bots[0]!.user.id };
}

function botTexts(f: FakeDiscord, channelId: string): string[] {
  return f
    .conversation(channelId)
    .filter((m) => m.author.id === f.bots[0]?.user.id)
    .map((m) => m.content);
}

describe("Discord ↔ discord.js ↔ Gateway ↔ scripted model", () => {
  it("holds a DM conversation that remembers the earlier turn", async () => {
    const { f, running: g } = await start(["Nice to meet you, Alice.", "Your name is Alice."]);
    const dm = f.dmChannel().id;
    await f.injectDm({ content: "my name is Alice" });
    await expect.poll(() => botTexts(f, dm)).toEqual(["Nice to meet you, Alice."]);
    await f.injectDm({ content: "what is my name?" });
    await expect.poll(() => botTexts(f, dm)).toEqual(["Nice to meet you, Alice.", "Your name is Alice."]);
    expect(modelInput(g.streamFn, 1)).toContain("my name is Alice");
    expect(modelInput(g.streamFn, 1)).toContain("Nice to meet you, Alice.");
  });

  it("ignores a guild message without a mention, answers a mention, and answers a thread in the thread", async () => {
    const { f, running: g, botId } = await start(["Hello channel!", "Hello thread!"]);
    const { general, thread } = f.guild;
    await f.injectChannelMessage({ content: "nobody asked the bot" });
    await f.injectMention({ content: "are you there?" });
    await expect.poll(() => botTexts(f, general.id)).toEqual(["Hello channel!"]);
    expect(g.streamFn.calls).toHaveLength(1);
    expect(modelInput(g.streamFn, 0)).not.toContain("nobody asked the bot");

    await f.injectThreadMessage({ content: `<@${botId}> and in the thread?` });
    await expect.poll(() => botTexts(f, thread.id)).toEqual(["Hello thread!"]);
    expect(botTexts(f, general.id)).toEqual(["Hello channel!"]);
  });

  it("registers /agents /status /new /stop /goal /usage /schedule as application commands on start, and answers a registered /status", async () => {
    const { f } = await start([]);
    // The gateway's start resolves only after the channel is ready, so the bulk overwrite has already happened.
    const put = f.callsTo("bulkOverwriteGlobalCommands");
    expect(put).toHaveLength(1);
    expect(put[0]?.httpMethod).toBe("PUT");
    expect(f.registeredCommands().map((c) => c.name)).toEqual([
      "agents",
      "status",
      "new",
      "stop",
      "goal",
      "usage",
      "schedule",
    ]);

    await f.injectSlashCommand({ name: "status" });
    const answer = await f.waitForCall("createInteractionResponse", 1, 5_000);
    expect(answer.body).toMatchObject({ type: 4 });
    expect(JSON.stringify(answer.body)).toContain("**Agent** main · **model** fake-model");
    // /status is for the whole channel: not ephemeral.
    expect(((answer.body as { data?: { flags?: number } }).data?.flags ?? 0) & 64).toBe(0);
  });

  it("shows /agents to an admin and refuses it to anyone else", async () => {
    const { f } = await start([]);
    await f.injectDm({ content: "/agents", author: DISCORD_STRANGER });
    await expect
      .poll(() => botTexts(f, f.dmChannel(undefined, DISCORD_STRANGER).id))
      .toEqual(["You are not authorised to use /agents."]);
    await f.injectDm({ content: "/agents" });
    await expect.poll(() => botTexts(f, f.dmChannel().id).join("\n")).toContain("Fleet**: 1 agent(s)");
  });

  it("delivers a 10 000-character answer complete and in order, every message within 2 000 chars and 17 lines", async () => {
    const answer = longMarkdownReply(10_000);
    const { f } = await start([{ blocks: [{ type: "text", text: answer, chunks: answer.match(/[\s\S]{1,400}/g)! }] }]);
    await f.injectMention({ content: "write a lot" });
    await expect.poll(() => botTexts(f, f.guild.general.id).at(-1) ?? "", { timeout: 10_000 }).toContain("the end");

    const messages = botTexts(f, f.guild.general.id);
    expect(messages.length).toBeGreaterThan(5);
    expect(messages.every((text) => text.length <= 2000 && text.split("\n").length <= 17)).toBe(true);
    const numbers = [...messages.join("\n").matchAll(/paragraph (\d+) /g)].map((match) => Number(match[1]));
    const expected = [...answer.matchAll(/paragraph (\d+) /g)].map((match) => Number(match[1]));
    expect(numbers).toEqual(expected);
  });

  it("keeps preview edits within 5 per 5 s per channel while streaming", async () => {
    const answer = "word ".repeat(300).trim();
    const chunks = answer.match(/[\s\S]{1,25}/g)!;
    // About 2.5 s of streaming: long enough for several preview edits.
    const { f } = await start([{ blocks: [{ type: "text", text: answer, chunks }], tokenDelayMs: 40 }]);
    await f.injectMention({ content: "stream something" });
    await expect.poll(() => botTexts(f, f.guild.general.id).join(""), { timeout: 10_000 }).toBe(answer);

    const edits = f.callsTo("editMessage").map((call) => call.at);
    expect(edits.length).toBeGreaterThan(1);
    for (let i = 5; i < edits.length; i++) expect(edits[i]! - edits[i - 5]!).toBeGreaterThanOrEqual(5_000);
  });

  it("answers the native /goal with its arguments, and /usage only to the admin who asked", async () => {
    const { f } = await start([]);
    await f.injectSlashCommand({
      name: "goal",
      options: [{ name: "args", type: 3, value: "write the release notes" }],
    });
    const set = await f.waitForCall("createInteractionResponse", 1, 5_000);
    expect(JSON.stringify(set.body)).toContain("Goal set: write the release notes");
    await f.injectSlashCommand({ name: "usage" });
    const usage = await f.waitForCall("createInteractionResponse", 2, 5_000);
    expect(JSON.stringify(usage.body)).toContain("**Per agent**");
    expect(((usage.body as { data?: { flags?: number } }).data?.flags ?? 0) & 64).toBe(64);
  });

  it("a 429 storm during a reply: the reply still arrives complete, exactly once", async () => {
    const answer = `${"a".repeat(1500)}\n\n${"b".repeat(1500)}\n\n${"c".repeat(1500)}`;
    const { f } = await start([answer], undefined);
    f.failNext({ method: "createMessage", status: 429, times: 3, retryAfterSeconds: 0.2 });
    f.failNext({ method: "editMessage", status: 429, times: 2, retryAfterSeconds: 0.2 });
    await f.injectMention({ content: "go" });
    await expect
      .poll(() => botTexts(f, f.guild.general.id), { timeout: 10_000 })
      .toEqual(["a".repeat(1500), "b".repeat(1500), "c".repeat(1500)]);
  });

  it("a reconnect with replayed events causes no duplicate reply", async () => {
    const { f, running: g } = await start(["first answer", "second answer", "unexpected third answer"], 1_000);
    await f.injectMention({ content: "one" });
    await expect.poll(() => botTexts(f, f.guild.general.id)).toEqual(["first answer"]);

    f.dropConnection({ replayDelivered: 3 });
    await f.waitForCall("gateway.resume");
    await f.waitForSession();
    await f.injectMention({ content: "two" });
    await expect.poll(() => botTexts(f, f.guild.general.id)).toEqual(["first answer", "second answer"]);
    await g.gateway.idle();
    expect(botTexts(f, f.guild.general.id)).toEqual(["first answer", "second answer"]);
  });
});
