import type { DiscordBotAccount, DiscordChannel, DiscordInteraction, DiscordMessage } from "./discord-types.js";
import { validateComponents } from "./rest-components.js";
import { createBotMessage, editStoredMessage, validateContent } from "./rest-messages.js";
import { error, noContent, type RestContext, type RestHandler, type RestReply } from "./rest-reply.js";

function commandList(ctx: RestContext): Array<Record<string, unknown>> {
  const key = `${ctx.params.applicationId ?? ""}:${ctx.params.guildId ?? ""}`;
  let list = ctx.world.commands.get(key);
  if (!list) {
    list = [];
    ctx.world.commands.set(key, list);
  }
  return list;
}

function toCommand(ctx: RestContext, raw: unknown): Record<string, unknown> {
  const spec = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const command: Record<string, unknown> = {
    id: ctx.world.ids.next(),
    application_id: ctx.params.applicationId,
    version: ctx.world.ids.next(),
    type: 1,
    description: "",
    options: [],
    default_member_permissions: null,
    nsfw: false,
    ...spec,
  };
  if (ctx.params.guildId !== undefined) command.guild_id = ctx.params.guildId;
  return command;
}

export const putCommands: RestHandler = (ctx) => {
  const list = commandList(ctx);
  const raw = Array.isArray(ctx.rawBody) ? (ctx.rawBody as unknown[]) : [];
  list.splice(0, list.length, ...raw.map((spec) => toCommand(ctx, spec)));
  return { status: 200, body: list };
};

export const postCommand: RestHandler = (ctx) => {
  const list = commandList(ctx);
  const command = toCommand(ctx, ctx.body);
  const existing = list.findIndex((c) => c.name === command.name);
  if (existing >= 0) list.splice(existing, 1, command);
  else list.push(command);
  return { status: existing >= 0 ? 200 : 201, body: command };
};

export const getCommands: RestHandler = (ctx) => ({ status: 200, body: commandList(ctx) });

function interactionOr404(ctx: RestContext): DiscordInteraction | RestReply {
  const interaction = ctx.world.interactions.get(ctx.params.token ?? "");
  if (!interaction) return error(404, 10015, "Unknown Webhook");
  if (ctx.params.interactionId !== undefined && interaction.id !== ctx.params.interactionId) {
    return error(404, 10062, "Unknown interaction");
  }
  if (ctx.params.applicationId !== undefined && interaction.applicationId !== ctx.params.applicationId) {
    return error(404, 10015, "Unknown Webhook");
  }
  return interaction;
}

function interactionBot(ctx: RestContext, interaction: DiscordInteraction): DiscordBotAccount {
  return ctx.world.bots.get(interaction.botToken) as DiscordBotAccount;
}

/** `interaction_metadata` of a response message: which interaction, by whom, and (a press) under which message. */
function interactionMetadata(interaction: DiscordInteraction): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    id: interaction.id,
    type: interaction.type,
    user: interaction.user,
    authorizing_integration_owners: {},
  };
  if (interaction.type === 2) metadata.name = interaction.commandName;
  if (interaction.message) metadata.interacted_message_id = interaction.message.id;
  return metadata;
}

/** Callback types Discord accepts per interaction type: a slash command (2) and a button press (3). */
const CALLBACK_TYPES: Record<DiscordInteraction["type"], readonly number[]> = { 2: [4, 5, 9, 12], 3: [4, 5, 6, 7, 9] };

/**
 * The bot's answer to an interaction: 4 reply, 5 deferred reply (a "thinking…" message), and for a button press
 * 6 deferred update (acknowledged, nothing shown) or 7 update (edits the button's message); 6 and 7 make that
 * message `@original`. A type the interaction does not allow (6 or 7 for a slash command) is refused with 50035, and a
 * second answer with 40060, as on Discord.
 */
export const interactionCallback: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  if (interaction.callbackType !== undefined) return error(400, 40060, "Interaction has already been acknowledged.");
  const type = Number(ctx.body.type);
  const allowed = CALLBACK_TYPES[interaction.type];
  if (!allowed.includes(type)) {
    // 6 and 7 only exist for a message's components: a slash command has no message of its own to update.
    return error(400, 50035, "Invalid Form Body", {
      type: { _errors: [{ code: "BASE_TYPE_CHOICES", message: `Value must be one of {${allowed.join(", ")}}.` }] },
    });
  }
  const data = (ctx.body.data ?? {}) as Record<string, unknown>;
  const invalid = validateComponents(data, "data");
  if (invalid) return invalid;
  interaction.callbackType = type;
  const channel = ctx.world.channels.get(interaction.channelId) as DiscordChannel;
  if (type === 4 || type === 5) {
    const inner: RestContext = { ...ctx, body: type === 5 ? { flags: 128 | Number(data.flags ?? 0) } : data };
    interaction.original = createBotMessage(inner, interactionBot(ctx, interaction), channel, {
      type: 20,
      interaction_metadata: interactionMetadata(interaction),
      webhook_id: interaction.applicationId,
      application_id: interaction.applicationId,
    });
  }
  if ((type === 6 || type === 7) && interaction.message) {
    const stored = ctx.world.messages.get(interaction.message.channel_id, interaction.message.id);
    if (stored && type === 7) editStoredMessage({ ...ctx, body: data }, stored);
    interaction.original = stored;
  }
  if (ctx.query.get("with_response") !== "true") return noContent;
  return {
    status: 200,
    body: {
      interaction: {
        id: interaction.id,
        type: interaction.type,
        response_message_id: interaction.original?.id,
        response_message_loading: type === 5,
        response_message_ephemeral: false,
      },
      resource: interaction.original ? { type, message: interaction.original } : { type },
    },
  };
};

export const followUp: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  if (interaction.callbackType === undefined) return error(404, 10015, "Unknown Webhook");
  const invalid = validateContent(ctx.body) ?? validateComponents(ctx.body);
  if (invalid) return invalid;
  const channel = ctx.world.channels.get(interaction.channelId) as DiscordChannel;
  const message = createBotMessage(ctx, interactionBot(ctx, interaction), channel, {
    webhook_id: interaction.applicationId,
    application_id: interaction.applicationId,
  });
  return { status: 200, body: message };
};

function webhookMessage(ctx: RestContext, interaction: DiscordInteraction): DiscordMessage | undefined {
  const id = ctx.params.messageId;
  if (id === "@original") return interaction.original;
  return ctx.world.messages.get(interaction.channelId, id ?? "");
}

export const editWebhookMessage: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  const message = webhookMessage(ctx, interaction);
  if (!message) return error(404, 10008, "Unknown Message");
  const invalid = validateComponents(ctx.body);
  if (invalid) return invalid;
  if (ctx.params.messageId === "@original") message.flags &= ~128;
  return { status: 200, body: editStoredMessage(ctx, message) };
};

export const getWebhookMessage: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  const message = webhookMessage(ctx, interaction);
  return message ? { status: 200, body: message } : error(404, 10008, "Unknown Message");
};

export const deleteWebhookMessage: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  const message = webhookMessage(ctx, interaction);
  if (!message) return error(404, 10008, "Unknown Message");
  ctx.world.messages.remove(message.channel_id, message.id);
  return noContent;
};
