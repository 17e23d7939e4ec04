import {
  ActionRowBuilder,
  ButtonBuilder,
  type ButtonInteraction,
  ButtonStyle,
  DiscordAPIError,
  Events,
  type TextChannel,
} from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { type DiscordMessage, startFakeDiscord } from "../src/platforms/index.js";
import { connectDiscordClient } from "./discord-test-client.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

function row(...buttons: Array<{ id: string; label: string }>) {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    buttons.map(({ id, label }) => new ButtonBuilder().setCustomId(id).setLabel(label).setStyle(ButtonStyle.Primary)),
  );
}

/** A raw button, past discord.js's own checks, to see what the fake answers. */
function rawRow(buttons: Array<{ custom_id: string; label: string }>) {
  return [{ type: 1, components: buttons.map((b) => ({ type: 2, style: 1, ...b })) }];
}

async function rejection(promise: Promise<unknown>): Promise<DiscordAPIError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscordAPIError);
  return error as DiscordAPIError;
}

describe("fake Discord: buttons (message components) with discord.js", () => {
  it("keeps a message's buttons, delivers a press as a ButtonInteraction and records the acknowledgement", async () => {
    const f = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(f));
    const presses: ButtonInteraction[] = [];
    c.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isButton()) return;
      presses.push(interaction);
      if (interaction.customId === "pick:a") await interaction.update({ content: "picked a", components: [] });
      else await interaction.deferUpdate();
    });
    const general = c.channels.cache.get(f.guild.general.id) as TextChannel;
    const sent = await general.send({
      content: "pick one",
      components: [row({ id: "pick:a", label: "A" }, { id: "pick:b", label: "B" })],
    });
    expect(sent.components).toHaveLength(1);
    const stored = (): DiscordMessage => f.conversation(f.guild.general.id).find((m) => m.id === sent.id)!;
    expect(stored().components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 1, label: "A", custom_id: "pick:a" },
          { type: 2, style: 1, label: "B", custom_id: "pick:b" },
        ],
      },
    ]);

    // A stranger cannot press what is not there.
    await expect(f.injectButtonPress({ customId: "pick:z", message: stored() })).rejects.toThrow(TypeError);

    const deferred = await f.injectButtonPress({ customId: "pick:b", message: stored() });
    expect(deferred.ok).toBe(true);
    await expect.poll(() => deferred.item.callbackType, { timeout: 5_000 }).toBe(6);
    expect(presses[0]).toMatchObject({ customId: "pick:b", channelId: f.guild.general.id, guildId: f.guild.id });
    expect(presses[0]?.user.id).toBe(f.user.id);
    expect(presses[0]?.message.id).toBe(sent.id);
    expect(stored().content).toBe("pick one");

    const updated = await f.injectButtonPress({ customId: "pick:a", message: stored() });
    await expect.poll(() => updated.item.callbackType, { timeout: 5_000 }).toBe(7);
    expect(stored()).toMatchObject({ content: "picked a", components: [] });
    expect(f.callsTo("createInteractionResponse").map((call) => (call.body as { type: number }).type)).toEqual([6, 7]);
  });

  it("delivers a press in a DM with `user` and to the bot that sent the message", async () => {
    const f = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(f));
    const pressed = new Promise<ButtonInteraction>((resolve) => {
      c.on(Events.InteractionCreate, (interaction) => {
        if (interaction.isButton()) resolve(interaction);
      });
    });
    const dm = f.dmChannel();
    await c.rest.post(`/channels/${dm.id}/messages`, {
      body: { content: "ok?", components: rawRow([{ custom_id: "yes", label: "Yes" }]) },
    });
    const message = f.conversation(dm.id).at(-1)!;
    await f.injectButtonPress({ customId: "yes", message });
    const interaction = await pressed;
    expect(interaction.guildId).toBeNull();
    expect(interaction.channelId).toBe(dm.id);
    expect(interaction.user.id).toBe(f.user.id);
    expect(interaction.customId).toBe("yes");
  });

  it("refuses components Discord refuses: a custom_id over 100 characters, six buttons in a row, an 81-character label", async () => {
    const f = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(f));
    const post = (components: unknown) =>
      c.rest.post(`/channels/${f.guild.general.id}/messages`, { body: { content: "x", components } });

    const longId = await rejection(post(rawRow([{ custom_id: "i".repeat(101), label: "ok" }])));
    expect(longId.status).toBe(400);
    expect(longId.code).toBe(50035);
    expect(longId.rawError).toMatchObject({
      message: "Invalid Form Body",
      errors: {
        components: { "0": { components: { "0": { custom_id: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } } } },
      },
    });

    const six = Array.from({ length: 6 }, (_, i) => ({ custom_id: `b${i}`, label: `B${i}` }));
    const crowded = await rejection(post(rawRow(six)));
    expect(crowded.rawError).toMatchObject({
      errors: { components: { "0": { components: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } } },
    });

    const longLabel = await rejection(post(rawRow([{ custom_id: "ok", label: "l".repeat(81) }])));
    expect(longLabel.rawError).toMatchObject({
      errors: {
        components: { "0": { components: { "0": { label: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } } } } },
      },
    });

    // Exactly at the limits is fine, and nothing refused was stored.
    await post(rawRow([{ custom_id: "i".repeat(100), label: "l".repeat(80) }]));
    expect(f.conversation(f.guild.general.id)).toHaveLength(1);
    expect(f.callsTo("createMessage").map((call) => call.status)).toEqual([400, 400, 400, 200]);
  });
});
