import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { CallLog, type RecordedCall } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import { FaultPlan } from "../shared/fault-plan.js";
import { listenHttp, sendEmpty, sendJson } from "../shared/http-listener.js";
import { parseMultipart } from "../shared/multipart-body.js";
import { asRecord, parseRequestBody } from "../shared/request-body.js";
import { urlAsAddressed } from "../shared/url-as-addressed.js";
import { pressButton } from "./button-press.js";
import { DiscordFiles } from "./discord-files.js";
import { DiscordGateway } from "./discord-gateway.js";
import type { DiscordInbound, FakeDiscord, FakeDiscordOptions } from "./discord-handle.js";
import { botRoutes, type RestContext, tokenRoutes } from "./discord-rest.js";
import type { DiscordBotAccount, DiscordChannel, DiscordMessage } from "./discord-types.js";
import { DiscordWorld, discordUser } from "./discord-world.js";
import { dispatchInteraction } from "./interaction-create.js";
import { SnowflakeGenerator } from "./snowflake.js";

const API_PREFIX = "/api/v10/";

/** A multipart call's `payload_json`, parsed (undefined when absent or not JSON). */
function payloadJson(fields: Record<string, string> | undefined): unknown {
  const text = fields?.payload_json;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Starts a fake Discord on 127.0.0.1: REST under `/api/v10` and a JSON gateway on `/gateway`.
 * Contract: discord.js works against it unmodified with `rest: { api: fake.restApi }`.
 */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const idSource = new SnowflakeGenerator();
  const accounts: DiscordBotAccount[] = (options.bots ?? [{}]).map((spec, index) => {
    const id = idSource.next();
    const username = spec.username ?? (index === 0 ? "chorus-test-bot" : `chorus-test-bot-${index}`);
    const token =
      spec.token ?? `${Buffer.from(id).toString("base64url")}.fake.${randomBytes(12).toString("base64url")}`;
    return { token, user: discordUser(id, username, true), applicationId: id };
  });
  const world = new DiscordWorld(accounts, options.extraTextChannels ?? 0, idSource, {
    ...(options.guilds === undefined ? {} : { guilds: options.guilds }),
    ...(options.shards === undefined ? {} : { shards: options.shards }),
    ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    ...(options.sessionStartLimit === undefined ? {} : { sessionStartLimit: options.sessionStartLimit }),
  });
  world.files = new DiscordFiles(options.attachmentUrlTtlMs ?? 86_400_000);
  if (options.maxUploadBytes !== undefined) world.uploads.maxBytes = options.maxUploadBytes;
  const log = new CallLog(options.callLogLimit);
  const faults = new FaultPlan();
  const echo = options.echoBotMessages ?? true;
  const first = accounts[0] as DiscordBotAccount;
  let gatewayUrl = "";

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const verb = req.method ?? "GET";
    if (url.pathname.startsWith("/attachments/")) {
      const file = world.files.serve(url.pathname, url.searchParams);
      if (file === undefined) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("This content is no longer available.");
        return;
      }
      res.writeHead(200, { "content-type": file.contentType, "content-length": String(file.bytes.byteLength) });
      res.end(file.bytes);
      return;
    }
    if (!url.pathname.startsWith(API_PREFIX)) {
      sendJson(res, 404, { message: "404: Not Found", code: 0 });
      return;
    }
    const segments = url.pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
    // A message with files is multipart/form-data: `payload_json` is its body, `files[n]` its uploads.
    const multipart = parseMultipart(req.headers["content-type"], raw);
    const rawBody = (req.headers["content-type"] ?? "").includes("multipart/form-data")
      ? payloadJson(multipart?.fields)
      : parseRequestBody(req, raw);
    const authorization = req.headers.authorization ?? "";
    const bot = authorization.startsWith("Bot ") ? world.bots.get(authorization.slice(4)) : undefined;
    const tokenRoute = tokenRoutes.match(verb, segments);
    const route = tokenRoute ?? botRoutes.match(verb, segments);
    const call: RecordedCall = {
      method: route?.name ?? "unknown",
      httpMethod: verb,
      path: url.pathname.slice("/api/v10".length),
      params: { ...route?.params, ...Object.fromEntries(url.searchParams) },
      body: rawBody,
      botId: bot?.user.id,
      status: 0,
      at: Date.now(),
    };
    log.record(call);
    const answer = (status: number, body?: unknown, headers?: Record<string, string>): void => {
      call.status = status;
      if (body === undefined) sendEmpty(res, status);
      else sendJson(res, status, body, headers);
    };
    if (!route) return answer(404, { message: "404: Not Found", code: 0 });
    if (!tokenRoute && !bot) return answer(401, { message: "401: Unauthorized", code: 0 });
    const fault = faults.take(route.name);
    if (fault) {
      if (fault.status !== 429) return answer(fault.status, { message: "Internal Server Error", code: 0 });
      const retryAfter = fault.retryAfterSeconds ?? 1;
      return answer(
        429,
        { message: "You are being rate limited.", retry_after: retryAfter, global: false },
        {
          "retry-after": String(retryAfter),
          "x-ratelimit-limit": "5",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": String(retryAfter),
          "x-ratelimit-bucket": `fake-${route.name}`,
          "x-ratelimit-scope": "user",
        },
      );
    }
    const ctx: RestContext = {
      world,
      bot,
      params: route.params,
      query: url.searchParams,
      body: asRecord(rawBody),
      rawBody,
      ...(multipart === undefined ? {} : { files: multipart.files }),
      // A client that came through a gate connects through it too.
      gatewayUrl: urlAsAddressed(req, gatewayUrl),
      echo,
    };
    const reply = route.handler(ctx);
    answer(reply.status, reply.body);
  };

  const listener = await listenHttp(handle);
  gatewayUrl = `ws://127.0.0.1:${listener.port}/gateway`;
  // Links to files on the fake CDN (people's attachments, bots' uploads) point here.
  world.files.origin = listener.origin;
  const gateway = new DiscordGateway(world, log, {
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    replayBufferSize: options.replayBufferSize ?? 1000,
    url: gatewayUrl,
  });
  listener.server.on("upgrade", (req, socket, head) => {
    if ((req.url ?? "").split("?")[0] === "/gateway") gateway.handleUpgrade(req, socket, head);
    else socket.destroy();
  });

  const account = (token: string | undefined): DiscordBotAccount => {
    if (token === undefined) return first;
    const found = world.bots.get(token);
    if (!found) throw new TypeError("unknown bot token for this fake Discord");
    return found;
  };
  const channel = (id: string): DiscordChannel => {
    const found = world.channels.get(id);
    if (!found) throw new TypeError(`unknown channel ${id} on this fake Discord`);
    return found;
  };
  /** A message with files attached: an `attachments` entry each, behind an expiring CDN link. */
  const withAttachments = (message: DiscordMessage, inbound: DiscordInbound): DiscordMessage => {
    if (inbound.attachments === undefined || inbound.attachments.length === 0) return message;
    world.files.origin = listener.origin;
    message.attachments = inbound.attachments.map((file) =>
      world.files.add(file, message.channel_id, world.ids.next()),
    );
    return message;
  };
  const deliver = (message: DiscordMessage): Promise<Delivery<DiscordMessage>> => {
    world.store(message);
    const count = world.broadcastMessage("MESSAGE_CREATE", message);
    return Promise.resolve(
      count > 0
        ? { ok: true, item: message }
        : { ok: false, item: message, reason: "no bot session sees this channel" },
    );
  };
  const mentionMessage = (inbound: DiscordInbound & { readonly channelId?: string }) => {
    const target = account(inbound.bot).user;
    return world.buildMessage(channel(inbound.channelId ?? world.guild.general.id), inbound.author ?? world.human, {
      content: `<@${target.id}> ${inbound.content}`,
      mentions: [target],
    });
  };

  return {
    restApi: `${listener.origin}/api`,
    gatewayUrl,
    token: first.token,
    bots: accounts,
    guild: world.guild,
    guilds: world.guilds,
    user: world.human,
    otherBot: world.otherBot,
    calls: log.calls,
    callsTo: (method) => log.callsTo(method),
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    waitForCall: (method, count = 1, timeoutMs) => {
      let seen = 0;
      return log.waitFor((call) => call.method === method && ++seen === count, timeoutMs);
    },
    waitForSession: async (bot, timeoutMs = 5_000, shard = 0) => {
      await gateway.waitForSession(account(bot), timeoutMs, shard);
    },
    connectedShards: (bot) => gateway.connectedShards(account(bot)),
    failNext: (fault) => faults.add(fault),
    injectDm: (inbound) => {
      const dm = world.dmChannel(account(inbound.bot), inbound.author ?? world.human);
      return deliver(
        withAttachments(world.buildMessage(dm, inbound.author ?? world.human, { content: inbound.content }), inbound),
      );
    },
    injectChannelMessage: (inbound) =>
      deliver(
        withAttachments(
          world.buildMessage(channel(inbound.channelId ?? world.guild.general.id), inbound.author ?? world.human, {
            content: inbound.content,
          }),
          inbound,
        ),
      ),
    injectMention: (inbound) => deliver(mentionMessage(inbound)),
    injectReply: (inbound) => {
      const target = inbound.to;
      const where = channel(target.channel_id);
      const reference: DiscordMessage["message_reference"] & object = {
        message_id: target.id,
        channel_id: target.channel_id,
      };
      if (where.guild_id !== undefined) reference.guild_id = where.guild_id;
      return deliver(
        world.buildMessage(where, inbound.author ?? world.human, {
          type: 19,
          content: inbound.content,
          message_reference: reference,
          referenced_message: target,
          mentions: [target.author],
        }),
      );
    },
    injectThreadMessage: (inbound) =>
      deliver(
        world.buildMessage(channel(inbound.threadId ?? world.guild.thread.id), inbound.author ?? world.human, {
          content: inbound.content,
        }),
      ),
    injectBotMessage: (inbound) =>
      deliver(
        world.buildMessage(channel(inbound.channelId ?? world.guild.general.id), world.otherBot, {
          content: inbound.content,
        }),
      ),
    injectSlashCommand: (inbound) => {
      const bot = account(inbound.bot);
      const user = inbound.user ?? world.human;
      const where = inbound.inDm ? world.dmChannel(bot, user) : channel(inbound.channelId ?? world.guild.general.id);
      const registered = world.commands.get(`${bot.applicationId}:`)?.find((c) => c.name === inbound.name);
      const data = {
        id: String(registered?.id ?? world.ids.next()),
        name: inbound.name,
        type: 1,
        options: inbound.options ?? [],
      };
      return Promise.resolve(
        dispatchInteraction(world, { bot, user, where, type: 2, data, record: { commandName: inbound.name } }),
      );
    },
    injectButtonPress: async (press) => pressButton(world, press, account),
    dropConnection: (opts = {}) =>
      gateway.drop(account(opts.bot), opts.replayDelivered ?? 0, opts.resumable ?? true, opts.shard ?? 0),
    sessionStartLimit: (bot) => ({
      ...world.sessionStartLimit(account(bot)).view(),
      max_concurrency: world.gatewayBot.maxConcurrency,
    }),
    setSessionStartLimit: (limit, bot) => world.sessionStartLimit(account(bot)).set(limit),
    holdResumed: (opts = {}) => gateway.holdResumed(account(opts.bot), opts.shard ?? 0),
    waitForHeartbeat: (opts = {}) =>
      gateway.waitForHeartbeat(account(opts.bot), opts.timeoutMs ?? 5_000, opts.shard ?? 0),
    requestReconnect: (opts = {}) => gateway.requestReconnect(account(opts.bot), opts.shard ?? 0),
    dmChannel: (bot, user) => world.dmChannel(account(bot), user ?? world.human),
    conversation: (channelId) => world.messages.history(channelId),
    sentFiles: () => world.uploads.sent(),
    registeredCommands: (bot, guildId) => world.commands.get(`${account(bot).applicationId}:${guildId ?? ""}`) ?? [],
    close: async () => {
      gateway.close();
      log.close();
      await listener.close();
    },
  };
}
