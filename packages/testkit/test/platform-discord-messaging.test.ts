import { once } from "node:events";
import {
  ChannelType,
  Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Message,
  Partials,
  Routes,
  SlashCommandBuilder,
  type TextChannel,
} from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { startFakeDiscord } from "../src/platforms/index.js";
import { connectDiscordClient } from "./discord-test-client.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

describe("discord.js against the fake Discord", () => {
  it("logs in, receives a DM and a guild mention, replies, edits and sends typing", async () => {
    const fake = cleanup.track(await startFakeDiscord({ heartbeatIntervalMs: 500 }));
    const c = cleanup.track(await connectDiscordClient(fake));
    expect(c.user?.username).toBe("chorus-test-bot");
    c.on(Events.MessageCreate, async (message) => {
      if (message.author.bot) return;
      await message.channel.sendTyping();
      const reply = await message.reply(`echo: ${message.content}`);
      await reply.edit(`${reply.content} (edited)`);
    });

    const dm = await fake.injectDm({ content: "hello in private" });
    const mention = await fake.injectMention({ content: "hello guild" });
    expect(dm.ok && mention.ok).toBe(true);
    await fake.waitForCall("editMessage", 2);

    const dmChannel = fake.dmChannel();
    expect(fake.conversation(dmChannel.id).map((m) => m.content)).toEqual([
      "hello in private",
      "echo: hello in private (edited)",
    ]);
    const general = fake.conversation(fake.guild.general.id);
    expect(general.map((m) => m.content)).toEqual([
      `<@${fake.bots[0]?.user.id}> hello guild`,
      `echo: <@${fake.bots[0]?.user.id}> hello guild (edited)`,
    ]);
    expect(general[1]?.message_reference?.message_id).toBe(general[0]?.id);
    expect(general[1]?.edited_timestamp).not.toBeNull();
    expect(
      fake
        .callsTo("triggerTyping")
        .map((call) => call.params.channelId)
        .sort(),
    ).toEqual([dmChannel.id, fake.guild.general.id].sort());
  });

  it("delivers thread, forum-post, other-bot and reply-to-bot messages with the right shape", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    const seen: Message[] = [];
    c.on(Events.MessageCreate, (message) => {
      if (message.author.id !== c.user?.id) seen.push(message);
    });
    const general = c.channels.cache.get(fake.guild.general.id) as TextChannel;
    const own = await general.send("I am the bot");

    await fake.injectThreadMessage({ content: "in a thread" });
    await fake.injectThreadMessage({ content: "in a forum post", threadId: fake.guild.forumPost.id });
    await fake.injectBotMessage({ content: "beep" });
    const ownStored = fake.conversation(fake.guild.general.id).find((m) => m.id === own.id)!;
    await fake.injectReply({ to: ownStored, content: "answering you" });
    await expect.poll(() => seen.length).toBe(4);

    const [thread, forumPost, fromBot, reply] = seen;
    expect(thread?.channel.isThread()).toBe(true);
    expect(thread?.channel.type).toBe(ChannelType.PublicThread);
    expect(forumPost?.channel.isThread() && forumPost.channel.parent?.type).toBe(ChannelType.GuildForum);
    expect(fromBot?.author.bot).toBe(true);
    expect(reply?.reference?.messageId).toBe(own.id);
    expect(reply?.mentions.repliedUser?.id).toBe(c.user?.id);
    const member = await c.guilds.cache.get(fake.guild.id)?.members.fetch(fake.user.id);
    expect(member?.user.username).toBe("alice");
  });

  it("registers slash commands and answers an interaction with defer, edit and follow-up", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    await c.application?.commands.set([new SlashCommandBuilder().setName("ask").setDescription("Ask the bot")]);
    expect(fake.registeredCommands().map((command) => command.name)).toEqual(["ask"]);

    c.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await interaction.editReply(`answer to /${interaction.commandName}`);
      await interaction.followUp("and one more thing");
    });
    const delivery = await fake.injectSlashCommand({ name: "ask" });
    await fake.waitForCall("executeWebhook");

    expect(delivery.ok).toBe(true);
    expect(delivery.item.callbackType).toBe(5);
    expect(fake.conversation(fake.guild.general.id).map((m) => m.content)).toEqual([
      "answer to /ask",
      "and one more thing",
    ]);

    // The same command in a DM answers in the DM channel.
    await fake.injectSlashCommand({ name: "ask", inDm: true });
    await fake.waitForCall("executeWebhook", 2);
    expect(fake.conversation(fake.dmChannel().id).map((m) => m.content)).toEqual([
      "answer to /ask",
      "and one more thing",
    ]);
  });

  it("refuses an update callback (6 or 7) for a slash command, which has no message to update, as Discord does", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    const outcomes: unknown[] = [];
    c.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      for (const type of [7, 6]) {
        const route = Routes.interactionCallback(interaction.id, interaction.token);
        outcomes.push(await c.rest.post(route, { body: { type, data: { content: "x" } } }).catch((error) => error));
      }
      // Refused answers leave the interaction unanswered: a proper reply still lands.
      await interaction.reply("answered");
    });
    const delivery = await fake.injectSlashCommand({ name: "ask" });
    await fake.waitForCall("createInteractionResponse", 3);

    expect(outcomes).toHaveLength(2);
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(DiscordAPIError);
      expect(outcome).toMatchObject({ code: 50035, status: 400 });
    }
    await expect.poll(() => delivery.item.callbackType).toBe(4);
    expect(fake.conversation(fake.guild.general.id).map((m) => m.content)).toEqual(["answered"]);
  });

  it("starts a thread from a message and talks in it", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    const created = once(c, Events.ThreadCreate);
    const general = c.channels.cache.get(fake.guild.general.id) as TextChannel;
    const anchor = await general.send("let's discuss");

    const thread = await anchor.startThread({ name: "discussion" });
    await created;
    await thread.send("inside the thread");

    expect(thread.id).toBe(anchor.id);
    expect(fake.conversation(thread.id).map((m) => m.content)).toEqual(["inside the thread"]);
    await fake.injectThreadMessage({ content: "human reply", threadId: thread.id });
    await expect.poll(() => thread.messages.cache.map((m) => m.content)).toContain("human reply");
  });

  it("keeps two bot tokens apart: a DM reaches only its bot, a channel message reaches both", async () => {
    const fake = cleanup.track(await startFakeDiscord({ bots: [{ username: "one" }, { username: "two" }] }));
    const received: string[] = [];
    const clients: Client[] = [];
    try {
      for (const bot of fake.bots) {
        const c = new Client({
          intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
          partials: [Partials.Channel],
          rest: { api: fake.restApi },
        });
        clients.push(c);
        c.on(Events.MessageCreate, (message) => {
          received.push(`${c.user?.username}:${message.content}`);
        });
        const ready = once(c, Events.ClientReady);
        await c.login(bot.token);
        await ready;
      }
      await fake.injectDm({ content: "for two", bot: fake.bots[1]!.token });
      await fake.injectMention({ content: "hey one", bot: fake.bots[0]!.token });
      await fake.injectChannelMessage({ content: "no content intent" });
      await expect.poll(() => received.length).toBe(5);
      const one = fake.bots[0]?.user.id;
      // Without MESSAGE_CONTENT, content is blank unless the bot is mentioned or it is a DM.
      expect(received.sort()).toEqual([`one:<@${one}> hey one`, "one:", "two:", "two:", "two:for two"].sort());
    } finally {
      for (const c of clients) await c.destroy();
    }
  });
});
