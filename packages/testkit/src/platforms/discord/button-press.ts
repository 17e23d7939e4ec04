import type { Delivery } from "../shared/delivery.js";
import type { DiscordButtonPress } from "./discord-handle.js";
import type { DiscordBotAccount, DiscordInteraction, DiscordMessage } from "./discord-types.js";
import type { DiscordWorld } from "./discord-world.js";
import { dispatchInteraction } from "./interaction-create.js";

/** The custom_ids of the buttons in a message's action rows. */
function customIdsOf(message: DiscordMessage): string[] {
  const rows = message.components as Array<{ components?: Array<{ type?: number; custom_id?: unknown }> }>;
  return rows.flatMap((row) =>
    (row.components ?? []).flatMap((c) => (c.type === 2 && typeof c.custom_id === "string" ? [c.custom_id] : [])),
  );
}

/**
 * Presses a button under a stored message: an INTERACTION_CREATE of type 3 (MESSAGE_COMPONENT) with
 * `data: { custom_id, component_type: 2 }` and the message as it is stored now, sent to the bot that owns the
 * message (Discord routes a component interaction to the application that sent the message).
 * Contract: throws TypeError for a message the fake does not hold or a custom_id none of its buttons has (a person
 * cannot press those); otherwise never throws.
 */
export function pressButton(
  world: DiscordWorld,
  press: DiscordButtonPress,
  account: (token: string | undefined) => DiscordBotAccount,
): Delivery<DiscordInteraction> {
  const message = world.messages.get(press.message.channel_id, press.message.id);
  const where = world.channels.get(press.message.channel_id);
  if (!message || !where) throw new TypeError(`unknown message ${press.message.id} on this fake Discord`);
  if (!customIdsOf(message).includes(press.customId)) {
    throw new TypeError(`message ${message.id} has no button with custom_id ${JSON.stringify(press.customId)}`);
  }
  const owner = [...world.bots.values()].find((bot) => bot.user.id === message.author.id);
  const bot = press.bot === undefined ? (owner ?? account(undefined)) : account(press.bot);
  return dispatchInteraction(world, {
    bot,
    user: press.user ?? world.human,
    where,
    type: 3,
    data: { custom_id: press.customId, component_type: 2 },
    record: { commandName: "", customId: press.customId, message },
    extra: { message },
  });
}
