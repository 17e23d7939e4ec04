import type { DiscordBotAccount, DiscordChannel, DiscordMessage } from "./discord-types.js";
import { validateComponents } from "./rest-components.js";
import {
  channelOf,
  error,
  noContent,
  type RestContext,
  type RestHandler,
  type RestReply,
  requireBot,
  unknownChannel,
} from "./rest-reply.js";

const MAX_CONTENT = 2000;

/** Discord's checks on message content: at most 2000 characters, never empty (`files` uploaded count as content). */
export function validateContent(body: Record<string, unknown>, files = 0): RestReply | undefined {
  const content = typeof body.content === "string" ? body.content : "";
  if (content.length > MAX_CONTENT) {
    return error(400, 50035, "Invalid Form Body", {
      content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${MAX_CONTENT} or fewer in length.` }] },
    });
  }
  const hasOther = ["embeds", "components", "sticker_ids", "attachments"].some(
    (key) => Array.isArray(body[key]) && (body[key] as unknown[]).length > 0,
  );
  if (content.length === 0 && !hasOther && files === 0) return error(400, 50006, "Cannot send an empty message");
  return undefined;
}

/** Discord's check on a reply: `message_reference.message_id` must be a snowflake, or the whole send is refused. */
export function validateReference(body: Record<string, unknown>): RestReply | undefined {
  const id = (body.message_reference as { message_id?: unknown } | undefined)?.message_id;
  if (id === undefined || (typeof id === "string" && /^\d{1,20}$/.test(id))) return undefined;
  return error(400, 50035, "Invalid Form Body", {
    message_reference: {
      message_id: { _errors: [{ code: "NUMBER_TYPE_COERCE", message: `Value "${String(id)}" is not snowflake.` }] },
    },
  });
}

/** Creates and stores a bot-authored message from a REST body; echoes it on the gateway. */
export function createBotMessage(
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

/** Applies an edit body to a stored message and echoes MESSAGE_UPDATE. */
export function editStoredMessage(ctx: RestContext, message: DiscordMessage): DiscordMessage {
  const { body } = ctx;
  if (typeof body.content === "string") message.content = body.content;
  for (const key of ["embeds", "components"] as const)
    if (Array.isArray(body[key])) message[key] = body[key] as unknown[];
  if (typeof body.flags === "number") message.flags = body.flags;
  message.edited_timestamp = new Date().toISOString();
  if (ctx.echo) ctx.world.broadcastMessage("MESSAGE_UPDATE", message);
  return message;
}

/** How long Discord remembers a nonce for `enforce_nonce` ("a few minutes"). */
export const NONCE_WINDOW_MS = 5 * 60_000;

/**
 * The message this bot already created in the channel with the body's nonce within the window, when the body asks
 * for `enforce_nonce` — Discord then returns that message and creates none.
 */
function earlierWithNonce(
  ctx: RestContext,
  bot: DiscordBotAccount,
  channel: DiscordChannel,
): DiscordMessage | undefined {
  const { nonce, enforce_nonce: enforce } = ctx.body;
  if (enforce !== true || (typeof nonce !== "string" && typeof nonce !== "number")) return undefined;
  const since = Date.now() - NONCE_WINDOW_MS;
  // From the newest back to the window's start: a bench's long channel is not copied and scanned whole per send.
  return ctx.world.messages.findNewest(
    channel.id,
    (m) => m.author.id === bot.user.id && m.nonce === nonce,
    (m) => Date.parse(m.timestamp) >= since,
  );
}

export const createMessage: RestHandler = (ctx) => {
  const bot = requireBot(ctx);
  const channel = channelOf(ctx);
  if (!channel) return unknownChannel;
  const uploads = ctx.world.uploads;
  const invalid =
    uploads.refusal(ctx.files) ??
    validateContent(ctx.body, ctx.files?.length ?? 0) ??
    validateComponents(ctx.body) ??
    validateReference(ctx.body);
  if (invalid) return invalid;
  // A repeat with the nonce (multipart too) returns the first message and keeps no second copy of its files.
  const earlier = earlierWithNonce(ctx, bot, channel);
  if (earlier) return { status: 200, body: earlier };
  const message = createBotMessage(ctx, bot, channel, uploads.attach(ctx, channel.id));
  uploads.record(ctx, message);
  return { status: 200, body: message };
};

export const editMessage: RestHandler = (ctx) => {
  const bot = requireBot(ctx);
  const message = ctx.world.messages.get(ctx.params.channelId ?? "", ctx.params.messageId ?? "");
  if (!message) return error(404, 10008, "Unknown Message");
  if (message.author.id !== bot.user.id) return error(403, 50005, "Cannot edit a message authored by another user");
  if (typeof ctx.body.content === "string" && ctx.body.content.length > MAX_CONTENT) return validateContent(ctx.body)!;
  const invalidComponents = validateComponents(ctx.body);
  if (invalidComponents) return invalidComponents;
  return { status: 200, body: editStoredMessage(ctx, message) };
};

export const deleteMessage: RestHandler = (ctx) => {
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
export function startThread(fromMessage: boolean): RestHandler {
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

export const getMessage: RestHandler = (ctx) => {
  const message = ctx.world.messages.get(ctx.params.channelId ?? "", ctx.params.messageId ?? "");
  return message ? { status: 200, body: message } : error(404, 10008, "Unknown Message");
};

export const getMessages: RestHandler = (ctx) => {
  const channel = channelOf(ctx);
  if (!channel) return unknownChannel;
  const limit = Math.min(Number(ctx.query.get("limit") ?? 50), 100);
  return { status: 200, body: ctx.world.messages.history(channel.id).slice(-limit).reverse() };
};

export const reaction: RestHandler = (ctx) => {
  const message = ctx.world.messages.get(ctx.params.channelId ?? "", ctx.params.messageId ?? "");
  return message ? noContent : error(404, 10008, "Unknown Message");
};

export const channelExists: RestHandler = (ctx) => {
  return channelOf(ctx) ? noContent : unknownChannel;
};

export const getChannel: RestHandler = (ctx) => {
  const channel = channelOf(ctx);
  return channel ? { status: 200, body: channel } : unknownChannel;
};

export const createDm: RestHandler = (ctx) => {
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
