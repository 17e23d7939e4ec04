import { randomBytes } from "node:crypto";
import { stringField } from "../shared/request-body.js";
import { type BlocksReading, readBlocks } from "./block-kit.js";
import type { SlackBotAccount, SlackMessage } from "./slack-types.js";
import type { SlackWorld } from "./slack-world.js";

/** Inputs of one Web API call. */
export interface WebApiContext {
  readonly world: SlackWorld;
  readonly account: SlackBotAccount;
  /** Whether the call was made with the app-level (`xapp-`) token. */
  readonly appLevel: boolean;
  readonly params: Record<string, unknown>;
  /** Base URL of the fake as the client addressed it, for `apps.connections.open` (worked out only when asked). */
  readonly origin: () => string;
  /** Registers a Socket Mode ticket and returns it. */
  readonly issueTicket: (account: SlackBotAccount) => string;
}

export type WebApiMethod = (ctx: WebApiContext) => Record<string, unknown>;

const MAX_TEXT = 40_000;
export const fail = (error: string): Record<string, unknown> => ({ ok: false, error });

export function botOnly(method: WebApiMethod): WebApiMethod {
  return (ctx) => (ctx.appLevel ? fail("not_allowed_token_type") : method(ctx));
}

/** Resolves `channel` (a C…/D… id, or a user id meaning "DM with that user"). */
export function resolveChannel(ctx: WebApiContext, key = "channel"): string | undefined {
  const id = stringField(ctx.params, key);
  if (id === undefined) return undefined;
  if (ctx.world.users.has(id)) return ctx.world.dm(ctx.account, id).id;
  return ctx.world.conversations.has(id) ? id : undefined;
}

// Slack answers bad blocks with the error and, per problem, a message naming the JSON pointer.
function blocksFailure(reading: Extract<BlocksReading, { ok: false }>): Record<string, unknown> {
  return { ok: false, error: reading.error, errors: reading.errors, response_metadata: { messages: reading.errors } };
}

function botMessage(ctx: WebApiContext, channel: string, ts: string, blocks?: unknown[]): SlackMessage {
  const { account, params, world } = ctx;
  const message: SlackMessage = {
    type: "message",
    channel,
    ts,
    text: stringField(params, "text") ?? "",
    user: account.userId,
    bot_id: account.botId,
    app_id: account.appId,
    team: world.teamId,
    bot_profile: { id: account.botId, app_id: account.appId, name: account.name, team_id: world.teamId },
  };
  if (blocks !== undefined && blocks.length > 0) message.blocks = blocks;
  return message;
}

const postMessage: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  if (!channel) return fail("channel_not_found");
  const text = stringField(ctx.params, "text") ?? "";
  const blocks = readBlocks(ctx.params.blocks);
  if (!blocks.ok) return blocksFailure(blocks);
  if (text.length === 0 && (blocks.blocks ?? []).length === 0) return fail("no_text");
  if (text.length > MAX_TEXT) return fail("msg_too_long");
  const message = botMessage(ctx, channel, ctx.world.ts.next(), blocks.blocks);
  const threadTs = stringField(ctx.params, "thread_ts");
  if (threadTs !== undefined) {
    message.thread_ts = threadTs;
    const parent = ctx.world.messages.get(channel, threadTs);
    if (parent?.user !== undefined) message.parent_user_id = parent.user;
  }
  ctx.world.store(message);
  const { channel: _channel, ...shown } = message;
  return { ok: true, channel, ts: message.ts, message: shown };
};

const update: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  const ts = stringField(ctx.params, "ts");
  if (!channel) return fail("channel_not_found");
  const message = ts === undefined ? undefined : ctx.world.messages.get(channel, ts);
  if (!message) return fail("message_not_found");
  if (message.bot_id !== ctx.account.botId) return fail("cant_update_message");
  const text = stringField(ctx.params, "text");
  if (text !== undefined && text.length > MAX_TEXT) return fail("msg_too_long");
  const blocks = readBlocks(ctx.params.blocks);
  if (!blocks.ok) return blocksFailure(blocks);
  if (text !== undefined) message.text = text;
  // As on Slack: blocks left out keep the message's blocks; an empty array removes them.
  if (blocks.blocks !== undefined && blocks.blocks.length > 0) message.blocks = blocks.blocks;
  else if (blocks.blocks !== undefined) delete message.blocks;
  message.edited = { user: ctx.account.userId, ts: ctx.world.ts.next() };
  const { channel: _channel, ...shown } = message;
  return { ok: true, channel, ts: message.ts, text: message.text, message: shown };
};

const remove: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  const ts = stringField(ctx.params, "ts") ?? "";
  if (!channel) return fail("channel_not_found");
  const message = ctx.world.messages.get(channel, ts);
  if (!message) return fail("message_not_found");
  if (message.bot_id !== ctx.account.botId) return fail("cant_delete_message");
  ctx.world.messages.remove(channel, ts);
  return { ok: true, channel, ts };
};

const startStream: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  if (!channel) return fail("channel_not_found");
  const threadTs = stringField(ctx.params, "thread_ts");
  if (threadTs === undefined) return fail("invalid_arguments");
  const text = stringField(ctx.params, "markdown_text") ?? "";
  const message = botMessage(ctx, channel, ctx.world.ts.next());
  message.text = text;
  message.thread_ts = threadTs;
  ctx.world.store(message);
  ctx.world.openStreams.add(`${channel}/${message.ts}`);
  return { ok: true, channel, ts: message.ts };
};

/** `chat.appendStream` and `chat.stopStream`: append markdown to an open stream (and close it). */
function continueStream(stop: boolean): WebApiMethod {
  return (ctx) => {
    const channel = resolveChannel(ctx);
    const ts = stringField(ctx.params, "ts") ?? "";
    if (!channel) return fail("channel_not_found");
    const message = ctx.world.messages.get(channel, ts);
    if (!message) return fail("message_not_found");
    if (!ctx.world.openStreams.has(`${channel}/${ts}`)) return fail("message_not_in_streaming_state");
    const more = stringField(ctx.params, "markdown_text");
    if (!stop && more === undefined) return fail("invalid_arguments");
    const blocks = readBlocks(ctx.params.blocks);
    if (!blocks.ok) return blocksFailure(blocks);
    message.text += more ?? "";
    if (blocks.blocks !== undefined) message.blocks = blocks.blocks;
    if (!stop) return { ok: true, channel, ts };
    ctx.world.openStreams.delete(`${channel}/${ts}`);
    const { channel: _channel, ...shown } = message;
    return { ok: true, channel, ts, message: shown };
  };
}

/** The message a reaction call targets and the emoji name, or the Slack error. */
function reactionTarget(ctx: WebApiContext): { messageKey: string; name: string } | { error: string } {
  const channel = resolveChannel(ctx);
  const ts = stringField(ctx.params, "timestamp") ?? "";
  const name = stringField(ctx.params, "name");
  if (!channel) return { error: "channel_not_found" };
  if (!name) return { error: "invalid_name" };
  if (!ctx.world.messages.get(channel, ts)) return { error: "message_not_found" };
  return { messageKey: `${channel}/${ts}/${ctx.account.userId}`, name };
}

const addReaction: WebApiMethod = (ctx) => {
  const target = reactionTarget(ctx);
  if ("error" in target) return fail(target.error);
  const names = ctx.world.reactions.get(target.messageKey) ?? new Set<string>();
  if (names.has(target.name)) return fail("already_reacted");
  names.add(target.name);
  ctx.world.reactions.set(target.messageKey, names);
  return { ok: true };
};

const removeReaction: WebApiMethod = (ctx) => {
  const target = reactionTarget(ctx);
  if ("error" in target) return fail(target.error);
  return ctx.world.reactions.get(target.messageKey)?.delete(target.name) ? { ok: true } : fail("no_reaction");
};

const conversationInfo: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  const conversation = channel === undefined ? undefined : ctx.world.conversations.get(channel);
  if (!conversation) return fail("channel_not_found");
  const info: Record<string, unknown> = {
    id: conversation.id,
    name: conversation.name,
    is_channel: !conversation.isIm,
    is_group: false,
    is_im: conversation.isIm,
    is_mpim: false,
    is_private: conversation.isIm,
    is_member: true,
    is_archived: false,
    created: 1_700_000_000,
  };
  if (conversation.user !== undefined) info.user = conversation.user;
  return { ok: true, channel: info };
};

const history: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  if (!channel) return fail("channel_not_found");
  const limit = Number(ctx.params.limit ?? 100);
  const messages = ctx.world.messages
    .history(channel)
    .filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts)
    .slice(-limit)
    .reverse();
  return { ok: true, messages, has_more: false };
};

const replies: WebApiMethod = (ctx) => {
  const channel = resolveChannel(ctx);
  const ts = stringField(ctx.params, "ts");
  if (!channel) return fail("channel_not_found");
  const messages = ctx.world.messages.history(channel).filter((m) => m.ts === ts || m.thread_ts === ts);
  return messages.length === 0 ? fail("thread_not_found") : { ok: true, messages, has_more: false };
};

const usersInfo: WebApiMethod = (ctx) => {
  const user = ctx.world.users.get(stringField(ctx.params, "user") ?? "");
  if (!user) return fail("user_not_found");
  return {
    ok: true,
    user: {
      id: user.id,
      team_id: ctx.world.teamId,
      name: user.name,
      real_name: user.name,
      is_bot: user.isBot,
      deleted: false,
      profile: { display_name: user.name, real_name: user.name },
    },
  };
};

const ok: WebApiMethod = () => ({ ok: true });

/** Web API methods the fake implements, by name. */
export const webApiMethods: Readonly<Record<string, WebApiMethod>> = {
  "api.test": ok,
  "auth.test": (ctx) =>
    ctx.appLevel
      ? { ok: true, app_id: ctx.account.appId }
      : {
          ok: true,
          url: "https://fake-team.slack.com/",
          team: "Fake Team",
          user: ctx.account.name,
          team_id: ctx.world.teamId,
          user_id: ctx.account.userId,
          bot_id: ctx.account.botId,
          app_id: ctx.account.appId,
          is_enterprise_install: false,
        },
  "apps.connections.open": (ctx) =>
    ctx.appLevel
      ? { ok: true, url: `${ctx.origin().replace(/^http/, "ws")}/link/?ticket=${ctx.issueTicket(ctx.account)}` }
      : fail("not_allowed_token_type"),
  "chat.postMessage": botOnly(postMessage),
  "chat.update": botOnly(update),
  "chat.delete": botOnly(remove),
  "chat.startStream": botOnly(startStream),
  "chat.appendStream": botOnly(continueStream(false)),
  "chat.stopStream": botOnly(continueStream(true)),
  "chat.postEphemeral": botOnly((ctx) => {
    const channel = resolveChannel(ctx);
    return channel ? { ok: true, message_ts: ctx.world.ts.next() } : fail("channel_not_found");
  }),
  "reactions.add": botOnly(addReaction),
  "reactions.remove": botOnly(removeReaction),
  "assistant.threads.setStatus": botOnly((ctx) =>
    resolveChannel(ctx, "channel_id") ? { ok: true } : fail("channel_not_found"),
  ),
  "assistant.threads.setSuggestedPrompts": botOnly(ok),
  "assistant.threads.setTitle": botOnly(ok),
  "conversations.info": botOnly(conversationInfo),
  "conversations.history": botOnly(history),
  "conversations.replies": botOnly(replies),
  "conversations.open": botOnly((ctx) => {
    const user = (stringField(ctx.params, "users") ?? "").split(",")[0] ?? "";
    if (!ctx.world.users.has(user)) return fail("user_not_found");
    return { ok: true, channel: { id: ctx.world.dm(ctx.account, user).id } };
  }),
  "users.info": botOnly(usersInfo),
};

/** A random Socket Mode ticket. */
export function newTicket(): string {
  return randomBytes(16).toString("hex");
}
