import type { InboundInteraction, InboundMessage } from "@chorus/channel";
import { NATIVE_COMMANDS } from "@chorus/channel";
import type { ChatInputCommandInteraction } from "discord.js";
import { toDiscordChannelError } from "./discord-errors.js";
import type { DiscordSelf } from "./discord-inbound.js";
import { discordInteractionPlace } from "./discord-interaction-place.js";

// MessageFlags.Ephemeral; a constant so this file needs no runtime import of discord.js.
const EPHEMERAL = 64;
// Discord drops an interaction not acknowledged within 3 s; defer a little before that.
export const DISCORD_DEFER_AFTER_MS = 2_000;

/** The application commands registered through REST on start, as Discord's API expects them. */
export function discordCommandPayloads(): Array<{ name: string; description: string; type: 1; options: unknown[] }> {
  return NATIVE_COMMANDS.map((command) => ({
    name: command.name,
    description: command.description,
    type: 1,
    options: [{ type: 3, name: "args", description: "Arguments, e.g. an agent id", required: false }],
  }));
}

/** Timers the channel owns, so stop() can clear the pending deferrals. */
export interface DeferralTimers {
  add(timer: NodeJS.Timeout): void;
  delete(timer: NodeJS.Timeout): void;
}

/**
 * Turns a slash command into an inbound message ("/agents args") whose `interaction.respond` answers the command.
 * If nobody answers within DISCORD_DEFER_AFTER_MS the command is deferred (ephemerally for /agents), so a later
 * answer still lands.
 * Contract: the first respond() answers or fills the deferred reply; later ones are follow-ups.
 */
export function normaliseDiscordCommand(
  interaction: ChatInputCommandInteraction,
  self: DiscordSelf,
  receivedAt: number,
  timers: DeferralTimers,
): InboundMessage {
  const defaultEphemeral = NATIVE_COMMANDS.find((c) => c.name === interaction.commandName)?.ephemeral ?? false;
  let state: "open" | "deferring" | "deferred" | "answered" = "open";
  let deferral: Promise<unknown> = Promise.resolve();
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (state !== "open") return;
    state = "deferring";
    deferral = interaction
      .deferReply(defaultEphemeral ? { flags: EPHEMERAL } : {})
      .then(() => {
        state = "deferred";
      })
      .catch(() => {
        state = "answered";
      });
  }, DISCORD_DEFER_AFTER_MS);
  timer.unref();
  timers.add(timer);

  const respond: InboundInteraction["respond"] = async (text, { ephemeral }) => {
    try {
      if (state === "open") {
        clearTimeout(timer);
        timers.delete(timer);
        state = "answered";
        await interaction.reply(ephemeral ? { content: text, flags: EPHEMERAL } : { content: text });
        return;
      }
      await deferral;
      if (state === "deferred") {
        state = "answered";
        await interaction.editReply({ content: text });
        return;
      }
      await interaction.followUp(ephemeral ? { content: text, flags: EPHEMERAL } : { content: text });
    } catch (error) {
      throw toDiscordChannelError(error, "interaction response");
    }
  };

  const args = interaction.options.data
    .map((option) => option.value)
    .filter((value) => value !== undefined && value !== null && String(value).length > 0)
    .join(" ");
  return {
    channel: "discord",
    accountId: self.accountId,
    ...discordInteractionPlace(interaction),
    messageId: interaction.id,
    eventId: interaction.id,
    sender: {
      id: interaction.user.id,
      name: interaction.user.globalName ?? interaction.user.username,
      isBot: interaction.user.bot,
    },
    text: args.length > 0 ? `/${interaction.commandName} ${args}` : `/${interaction.commandName}`,
    // A command is addressed to this bot by construction.
    mentionsBot: true,
    replyToBot: false,
    attachments: [],
    receivedAt,
    interaction: { respond },
  };
}
