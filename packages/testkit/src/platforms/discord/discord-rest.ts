import type { DiscordBotAccount, DiscordChannel, DiscordInteraction, DiscordMessage } from "./discord-types.js";
import type { DiscordWorld } from "./discord-world.js";
import { RestRouter } from "./rest-router.js";

/** What a REST handler answers: a status and an optional JSON body. */
export interface RestReply {
  readonly status: number;
  readonly body?: unknown;
}

/** Inputs of one REST call. */
export interface RestContext {
  readonly world: DiscordWorld;
  /** Authenticated bot, or `undefined` for token-authenticated routes (interactions, webhooks). */
  readonly bot: DiscordBotAccount | undefined;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  /** The parsed body as sent (an array for bulk command overwrites). */
  readonly rawBody: unknown;
  readonly gatewayUrl: string;
  /** Whether bot-sent messages are echoed as gateway MESSAGE_CREATE/UPDATE. */
  readonly echo: boolean;
}

type RestHandler = (ctx: RestContext) => RestReply;

/** A JSON error answer, shaped like Discord's. */
const error = (status: number, code: number, message: string, errors?: unknown): RestReply => ({
  status,
  body: errors === undefined ? { message, code } : { message, code, errors },
});
const noContent: RestReply = { status: 204 };
const MAX_CONTENT = 2000;

function requireBot(ctx: RestContext): DiscordBotAccount {
  if (!ctx.bot) throw new Error("route requires an authenticated bot");
  return ctx.bot;
}

const unknownChannel = error(404, 10003, "Unknown Channel");

function channelOf(ctx: RestContext): DiscordChannel | undefined {
  return ctx.world.channels.get(ctx.params.channelId ?? "");
}

function validateContent(body: Record<string, unknown>): RestReply | undefined {
  const content = typeof body.content === "string" ? body.content : "";
  if (content.length > MAX_CONTENT) {
    return error(400, 50035, "Invalid Form Body", {
      content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${MAX_CONTENT} or fewer in length.` }] },
    });
  }
  const hasOther = ["embeds", "components", "sticker_ids", "attachments"].some(
    (key) => Array.isArray(body[key]) && (body[key] as unknown[]).length > 0,
  );
  if (content.length === 0 && !hasOther) return error(400, 50006, "Cannot send an empty message");
  return undefined;
}

/** Creates and stores a bot-authored message from a REST body; echoes it on the gateway. */
function createBotMessage(
  ctx: RestContext,
  bot: DiscordBotAccount,
  channel: DiscordChannel,
  extra: Partial<DiscordMessage> = {},
): DiscordMessage {
  const { body, world } = ctx;
  const fields: Partial<DiscordMessage> = { content: typeof body.content === "string" ? body.content : "", ...extra };
  for (const key of ["embeds", "components"] as const)
    if (Array.isArray(body[key])) fields[key] = body[key] as unknown[];
  if (typeof body.flags === "number") fields.flags = body.flags;
  if (typeof body.nonce === "string" || typeof body.nonce === "number") fields.nonce = body.nonce;
  const reference = body.message_reference as { message_id?: string } | undefined;
  if (reference?.message_id) {
    const target = world.messages.get(channel.id, reference.message_id);
    fields.type = 19;
    fields.message_reference = { message_id: reference.message_id, channel_id: channel.id };
    if (channel.guild_id !== undefined) fields.message_reference.guild_id = channel.guild_id;
    fields.referenced_message = target ?? null;
  }
  const message = world.store(world.buildMessage(channel, bot.user, fields));
  if (ctx.echo) world.broadcastMessage("MESSAGE_CREATE", message);
  return message;
}

function editStoredMessage(ctx: RestContext, message: DiscordMessage): DiscordMessage {
  const { body } = ctx;
  if (typeof body.content === "string") message.content = body.content;
  for (const key of ["embeds", "components"] as const)
    if (Array.isArray(body[key])) message[key] = body[key] as unknown[];
  if (typeof body.flags === "number") message.flags = body.flags;
  message.edited_timestamp = new Date().toISOString();
  if (ctx.echo) ctx.world.broadcastMessage("MESSAGE_UPDATE", message);
  return message;
}

const createMessage: RestHandler = (ctx) => {
  const bot = requireBot(ctx);
  const channel = channelOf(ctx);
  if (!channel) return unknownChannel;
  const invalid = validateContent(ctx.body);
  if (invalid) return invalid;
  return { status: 200, body: createBotMessage(ctx, bot, channel) };
};

const editMessage: RestHandler = (ctx) => {
  const bot = requireBot(ctx);
  const message = ctx.world.messages.get(ctx.params.channelId ?? "", ctx.params.messageId ?? "");
  if (!message) return error(404, 10008, "Unknown Message");
  if (message.author.id !== bot.user.id) return error(403, 50005, "Cannot edit a message authored by another user");
  if (typeof ctx.body.content === "string" && ctx.body.content.length > MAX_CONTENT) return validateContent(ctx.body)!;
  return { status: 200, body: editStoredMessage(ctx, message) };
};

const deleteMessage: RestHandler = (ctx) => {
  const channelId = ctx.params.channelId ?? "";
  const removed = ctx.world.messages.remove(channelId, ctx.params.messageId ?? "");
  if (!removed) return error(404, 10008, "Unknown Message");
  for (const session of ctx.world.sessionsFor(channelId)) {
    const d: Record<string, string> = { id: removed.id, channel_id: channelId };
    if (removed.guild_id !== undefined) d.guild_id = removed.guild_id;
    if (ctx.echo) session.dispatch("MESSAGE_DELETE", d);
  }
  return noContent;
};

/** Starts a public thread, from a message (thread id = message id, as on Discord) or bare. */
function startThread(fromMessage: boolean): RestHandler {
  return (ctx) => {
    const parent = channelOf(ctx);
    if (!parent) return unknownChannel;
    if (parent.guild_id === undefined) return error(400, 50024, "Cannot execute action on this channel type");
    const name = typeof ctx.body.name === "string" ? ctx.body.name : "";
    if (name.length === 0 || name.length > 100) {
      return error(400, 50035, "Invalid Form Body", { name: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } });
    }
    const starter = fromMessage ? ctx.world.messages.get(parent.id, ctx.params.messageId ?? "") : undefined;
    if (fromMessage && !starter) return error(404, 10008, "Unknown Message");
    const thread = ctx.world.addThread(parent, name, requireBot(ctx).user.id, starter?.id);
    for (const session of ctx.world.sessionsFor(thread.id)) {
      session.dispatch("THREAD_CREATE", { ...thread, newly_created: true });
    }
    const first = ctx.body.message as Record<string, unknown> | undefined;
    if (parent.type === 15 && first) createBotMessage({ ...ctx, body: first }, requireBot(ctx), thread);
    return { status: 201, body: thread };
  };
}

const getMessage: RestHandler = (ctx) => {
  const message = ctx.world.messages.get(ctx.params.channelId ?? "", ctx.params.messageId ?? "");
  return message ? { status: 200, body: message } : error(404, 10008, "Unknown Message");
};

const getMessages: RestHandler = (ctx) => {
  const channel = channelOf(ctx);
  if (!channel) return unknownChannel;
  const limit = Math.min(Number(ctx.query.get("limit") ?? 50), 100);
  return { status: 200, body: ctx.world.messages.history(channel.id).slice(-limit).reverse() };
};

const reaction: RestHandler = (ctx) => {
  const message = ctx.world.messages.get(ctx.params.channelId ?? "", ctx.params.messageId ?? "");
  return message ? noContent : error(404, 10008, "Unknown Message");
};

const channelExists: RestHandler = (ctx) => {
  return channelOf(ctx) ? noContent : unknownChannel;
};

const getChannel: RestHandler = (ctx) => {
  const channel = channelOf(ctx);
  return channel ? { status: 200, body: channel } : unknownChannel;
};

const createDm: RestHandler = (ctx) => {
  const bot = requireBot(ctx);
  const recipient = String(ctx.body.recipient_id ?? "");
  const user =
    recipient === ctx.world.human.id
      ? ctx.world.human
      : recipient === ctx.world.otherBot.id
        ? ctx.world.otherBot
        : undefined;
  if (!user) return error(400, 50007, "Cannot send messages to this user");
  return { status: 200, body: ctx.world.dmChannel(bot, user) };
};

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

const putCommands: RestHandler = (ctx) => {
  const list = commandList(ctx);
  const raw = Array.isArray(ctx.rawBody) ? (ctx.rawBody as unknown[]) : [];
  list.splice(0, list.length, ...raw.map((spec) => toCommand(ctx, spec)));
  return { status: 200, body: list };
};

const postCommand: RestHandler = (ctx) => {
  const list = commandList(ctx);
  const command = toCommand(ctx, ctx.body);
  const existing = list.findIndex((c) => c.name === command.name);
  if (existing >= 0) list.splice(existing, 1, command);
  else list.push(command);
  return { status: existing >= 0 ? 200 : 201, body: command };
};

const getCommands: RestHandler = (ctx) => ({ status: 200, body: commandList(ctx) });

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

const interactionCallback: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  if (interaction.callbackType !== undefined) return error(400, 40060, "Interaction has already been acknowledged.");
  const type = Number(ctx.body.type);
  const data = (ctx.body.data ?? {}) as Record<string, unknown>;
  interaction.callbackType = type;
  const channel = ctx.world.channels.get(interaction.channelId) as DiscordChannel;
  if (type === 4 || type === 5) {
    const inner: RestContext = { ...ctx, body: type === 5 ? { flags: 128 | Number(data.flags ?? 0) } : data };
    interaction.original = createBotMessage(inner, interactionBot(ctx, interaction), channel, {
      type: 20,
      interaction_metadata: {
        id: interaction.id,
        type: 2,
        name: interaction.commandName,
        user: interaction.user,
        authorizing_integration_owners: {},
      },
      webhook_id: interaction.applicationId,
      application_id: interaction.applicationId,
    });
  }
  if (ctx.query.get("with_response") !== "true") return noContent;
  return {
    status: 200,
    body: {
      interaction: {
        id: interaction.id,
        type: 2,
        response_message_id: interaction.original?.id,
        response_message_loading: type === 5,
        response_message_ephemeral: false,
      },
      resource: interaction.original ? { type, message: interaction.original } : { type },
    },
  };
};

const followUp: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  if (interaction.callbackType === undefined) return error(404, 10015, "Unknown Webhook");
  const invalid = validateContent(ctx.body);
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

const editWebhookMessage: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  const message = webhookMessage(ctx, interaction);
  if (!message) return error(404, 10008, "Unknown Message");
  if (ctx.params.messageId === "@original") message.flags &= ~128;
  return { status: 200, body: editStoredMessage(ctx, message) };
};

const getWebhookMessage: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  const message = webhookMessage(ctx, interaction);
  return message ? { status: 200, body: message } : error(404, 10008, "Unknown Message");
};

const deleteWebhookMessage: RestHandler = (ctx) => {
  const interaction = interactionOr404(ctx);
  if ("status" in interaction) return interaction;
  const message = webhookMessage(ctx, interaction);
  if (!message) return error(404, 10008, "Unknown Message");
  ctx.world.messages.remove(message.channel_id, message.id);
  return noContent;
};

/** Routes under `/api/v10` that need `Authorization: Bot <token>`. */
export const botRoutes = new RestRouter<RestHandler>()
  .add("GET /gateway/bot", "getGatewayBot", (ctx) => ({
    status: 200,
    body: {
      url: ctx.gatewayUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    },
  }))
  .add("GET /users/@me", "getCurrentUser", (ctx) => ({ status: 200, body: requireBot(ctx).user }))
  .add("GET /applications/@me", "getCurrentApplication", (ctx) => {
    const bot = requireBot(ctx);
    return {
      status: 200,
      body: {
        id: bot.applicationId,
        name: bot.user.username,
        icon: null,
        description: "",
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: "0".repeat(64),
        flags: 0,
        team: null,
        bot: bot.user,
      },
    };
  })
  .add("GET /channels/:channelId", "getChannel", getChannel)
  .add("POST /channels/:channelId/messages", "createMessage", createMessage)
  .add("GET /channels/:channelId/messages", "getMessages", getMessages)
  .add("GET /channels/:channelId/messages/:messageId", "getMessage", getMessage)
  .add("PATCH /channels/:channelId/messages/:messageId", "editMessage", editMessage)
  .add("DELETE /channels/:channelId/messages/:messageId", "deleteMessage", deleteMessage)
  .add("POST /channels/:channelId/typing", "triggerTyping", channelExists)
  .add("POST /channels/:channelId/threads", "startThread", startThread(false))
  .add("POST /channels/:channelId/messages/:messageId/threads", "startThreadFromMessage", startThread(true))
  .add("PUT /channels/:channelId/messages/:messageId/reactions/:emoji/@me", "createReaction", reaction)
  .add("DELETE /channels/:channelId/messages/:messageId/reactions/:emoji/@me", "deleteOwnReaction", reaction)
  .add("POST /users/@me/channels", "createDm", createDm)
  .add("GET /applications/:applicationId/commands", "getGlobalCommands", getCommands)
  .add("PUT /applications/:applicationId/commands", "bulkOverwriteGlobalCommands", putCommands)
  .add("POST /applications/:applicationId/commands", "createGlobalCommand", postCommand)
  .add("GET /applications/:applicationId/guilds/:guildId/commands", "getGuildCommands", getCommands)
  .add("PUT /applications/:applicationId/guilds/:guildId/commands", "bulkOverwriteGuildCommands", putCommands)
  .add("POST /applications/:applicationId/guilds/:guildId/commands", "createGuildCommand", postCommand);

/** Routes authenticated by the interaction token in the path (no bot token). */
export const tokenRoutes = new RestRouter<RestHandler>()
  .add("POST /interactions/:interactionId/:token/callback", "createInteractionResponse", interactionCallback)
  .add("POST /webhooks/:applicationId/:token", "executeWebhook", followUp)
  .add("GET /webhooks/:applicationId/:token/messages/:messageId", "getWebhookMessage", getWebhookMessage)
  .add("PATCH /webhooks/:applicationId/:token/messages/:messageId", "editWebhookMessage", editWebhookMessage)
  .add("DELETE /webhooks/:applicationId/:token/messages/:messageId", "deleteWebhookMessage", deleteWebhookMessage);
