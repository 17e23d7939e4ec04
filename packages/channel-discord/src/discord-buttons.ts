import type { InboundMessage, OutboundButton } from "@chorus/channel";
import type { APIActionRowComponent, APIButtonComponentWithCustomId, ButtonInteraction } from "discord.js";
import type { DiscordSelf } from "./discord-inbound.js";
import { discordInteractionPlace } from "./discord-interaction-place.js";

/** Discord's limits on a button's custom_id and label and on the buttons of one action row. */
const MAX_CUSTOM_ID_LENGTH = 100;
const MAX_LABEL_LENGTH = 80;
const MAX_BUTTONS_PER_ROW = 5;
// ComponentType and ButtonStyle values; constants so this file needs no runtime import of discord.js.
const ACTION_ROW = 1;
const BUTTON = 2;
const PRIMARY = 1;
const SECONDARY = 2;

/** One action row of buttons, as a message's `components`. */
export type DiscordButtonRows = [APIActionRowComponent<APIButtonComponentWithCustomId>];

/**
 * Buttons as one action row under the message, each button's id as its custom_id. The first button is Primary
 * (the gateway puts the expected answer first, e.g. Approve) and the rest Secondary: the channel does not know what
 * a button means, so it marks none as dangerous.
 * Contract: undefined when no button is left; a button whose id exceeds 100 characters or repeats an earlier id
 * is left out and only the first five are kept (Discord would refuse the whole message); labels are cut to 80.
 */
export function discordButtonRowsOf(buttons: readonly OutboundButton[] | undefined): DiscordButtonRows | undefined {
  const seen = new Set<string>();
  const row = (buttons ?? [])
    .filter((button) => {
      if (button.id.length === 0 || button.id.length > MAX_CUSTOM_ID_LENGTH || seen.has(button.id)) return false;
      seen.add(button.id);
      return true;
    })
    .slice(0, MAX_BUTTONS_PER_ROW)
    .map(
      (button, index): APIButtonComponentWithCustomId => ({
        type: BUTTON,
        style: index === 0 ? PRIMARY : SECONDARY,
        label:
          button.label.length > MAX_LABEL_LENGTH ? `${button.label.slice(0, MAX_LABEL_LENGTH - 1)}…` : button.label,
        custom_id: button.id,
      }),
    );
  return row.length === 0 ? undefined : [{ type: ACTION_ROW, components: row }];
}

/**
 * A button press as an inbound message from the person who pressed it, whose text is the button's custom_id (the
 * OutboundButton contract), in the chat (and thread) of the message the button is under.
 * Contract: eventId is the interaction id, unique per press and the same if the gateway replays the event after a
 * RESUME; messageId is `interaction:<id>` (a press is no message). A bot's press carries isBot like a bot's message,
 * so the inbound policy treats both alike.
 */
export function normaliseDiscordButtonPress(
  interaction: ButtonInteraction,
  self: DiscordSelf,
  receivedAt: number,
): InboundMessage {
  return {
    channel: "discord",
    accountId: self.accountId,
    ...discordInteractionPlace(interaction),
    messageId: `interaction:${interaction.id}`,
    eventId: interaction.id,
    sender: {
      id: interaction.user.id,
      name: interaction.user.globalName ?? interaction.user.username,
      isBot: interaction.user.bot,
    },
    text: interaction.customId,
    // A button under the bot's own message is addressed to the bot.
    mentionsBot: true,
    replyToBot: true,
    attachments: [],
    receivedAt,
  };
}
