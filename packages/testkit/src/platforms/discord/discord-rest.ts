import { getGuildMember, getUser } from "./rest-identity.js";
import {
  deleteWebhookMessage,
  editWebhookMessage,
  followUp,
  getCommands,
  getWebhookMessage,
  interactionCallback,
  postCommand,
  putCommands,
} from "./rest-interactions.js";
import {
  channelExists,
  createDm,
  createMessage,
  deleteMessage,
  editMessage,
  getChannel,
  getMessage,
  getMessages,
  reaction,
  startThread,
} from "./rest-messages.js";
import { type RestHandler, requireBot } from "./rest-reply.js";
import { RestRouter } from "./rest-router.js";

export type { RestContext, RestReply } from "./rest-reply.js";

/** Routes under `/api/v10` that need `Authorization: Bot <token>`. */
export const botRoutes = new RestRouter<RestHandler>()
  .add("POST /attachments/refresh-urls", "refreshAttachmentUrls", (ctx) => {
    requireBot(ctx);
    const urls = Array.isArray(ctx.body.attachment_urls) ? ctx.body.attachment_urls : [];
    return {
      status: 200,
      body: {
        refreshed_urls: urls
          .filter((url): url is string => typeof url === "string")
          .map((original) => ({ original, refreshed: ctx.world.files.refresh(original) ?? original })),
      },
    };
  })
  .add("GET /gateway/bot", "getGatewayBot", (ctx) => ({
    status: 200,
    body: {
      url: ctx.gatewayUrl,
      shards: ctx.world.gatewayBot.shards,
      session_start_limit: {
        ...ctx.world.sessionStartLimit(requireBot(ctx)).view(),
        max_concurrency: ctx.world.gatewayBot.maxConcurrency,
      },
    },
  }))
  .add("GET /users/@me", "getCurrentUser", (ctx) => ({ status: 200, body: requireBot(ctx).user }))
  .add("GET /users/:userId", "getUser", getUser)
  .add("GET /guilds/:guildId/members/:userId", "getGuildMember", getGuildMember)
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
