import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { CallLog, type RecordedCall } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import { FaultPlan } from "../shared/fault-plan.js";
import { listenHttp, sendJson } from "../shared/http-listener.js";
import { asRecord, parseRequestBody } from "../shared/request-body.js";
import { urlAsAddressed } from "../shared/url-as-addressed.js";
import { blockActionPayload, chooseButton } from "./block-actions.js";
import { postSignedEvent } from "./http-events.js";
import type { SharedFile } from "./slack-files.js";
import type { FakeSlack, FakeSlackOptions, SlackBotSpec } from "./slack-handle.js";
import type {
  SlackBotAccount,
  SlackEventBody,
  SlackMessage,
  SlackSigningOverride,
  SlackSlashCommand,
} from "./slack-types.js";
import { type SlackConversation, SlackWorld } from "./slack-world.js";
import { type EnvelopeType, SocketLinks } from "./socket-links.js";
import { receiveUpload, slackFileMethods, UPLOAD_PATH } from "./web-api-files.js";
import { type WebApiContext, webApiMethods } from "./web-api-methods.js";

function account(spec: SlackBotSpec, index: number): SlackBotAccount {
  const n = String(index + 1).padStart(4, "0");
  return {
    botToken: spec.botToken ?? `xoxb-fake-${n}-${randomBytes(8).toString("hex")}`,
    appToken: spec.appToken ?? `xapp-1-A0FAKE${n}-${randomBytes(8).toString("hex")}`,
    signingSecret: spec.signingSecret ?? randomBytes(16).toString("hex"),
    appId: `A0FAKE${n}`,
    botId: `B0FAKE${n}`,
    userId: `U0BOT${n}`,
    name: spec.name ?? (index === 0 ? "chorus-test-bot" : `chorus-test-bot-${index}`),
  };
}

function tokenOf(req: IncomingMessage, params: Record<string, unknown>): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7);
  return typeof params.token === "string" ? params.token : undefined;
}

/**
 * Starts a fake Slack on 127.0.0.1: the Web API at `/api/<method>` and event delivery over
 * Socket Mode (`/link/`) or signed HTTP POSTs.
 * Contract: @slack/bolt works against it unmodified with `clientOptions.slackApiUrl = fake.apiUrl`.
 */
export async function startFakeSlack(options: FakeSlackOptions): Promise<FakeSlack> {
  if (options.mode !== "socket" && options.mode !== "http") {
    throw new TypeError(`startFakeSlack: mode must be "socket" or "http", got ${String(options.mode)}`);
  }
  const accounts = (options.bots ?? [{}]).map(account);
  const first = accounts[0] as SlackBotAccount;
  const world = new SlackWorld(accounts);
  world.uploads.shareDelayMs = options.fileShareDelayMs ?? 0;
  const log = new CallLog(options.callLogLimit);
  const faults = new FaultPlan();
  const links = new SocketLinks(log, options.pingIntervalMs ?? 5_000, options.eventAckTimeoutMs ?? 0);
  const eventsUrls = new Map<string, string>();
  const abort = new AbortController();
  let origin = "";

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const params = asRecord(parseRequestBody(req, raw));
    if (path.startsWith("/files-pri/")) {
      serveSharedFile(req, res, path);
      return;
    }
    if (path.startsWith(UPLOAD_PATH)) {
      receiveUpload(world.uploads, log, req, res, raw);
      return;
    }
    if (path === "/signin") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!DOCTYPE html><html><body>Sign in to Fake Slack</body></html>");
      return;
    }
    if (path.startsWith("/respond/")) {
      log.record({
        method: "response_url",
        httpMethod: req.method ?? "POST",
        path,
        params: {},
        body: params,
        botId: undefined,
        status: 200,
        at: Date.now(),
      });
      sendJson(res, 200, { ok: true });
      return;
    }
    if (!path.startsWith("/api/")) {
      sendJson(res, 404, { ok: false, error: "not_found" });
      return;
    }
    const method = path.slice("/api/".length);
    const token = tokenOf(req, params);
    const bot = token === undefined ? undefined : world.byBotToken.get(token);
    const app = token === undefined || bot ? undefined : world.byAppToken.get(token);
    const who = bot ?? app;
    const { token: _secret, ...body } = params;
    const call: RecordedCall = {
      method,
      httpMethod: req.method ?? "POST",
      path,
      params: {},
      body,
      botId: who?.userId,
      status: 0,
      at: Date.now(),
    };
    log.record(call);
    const answer = (status: number, payload: unknown, headers?: Record<string, string>): void => {
      call.status = status;
      sendJson(res, status, payload, headers);
    };
    const implementation = webApiMethods[method] ?? slackFileMethods[method];
    if (!implementation) return answer(200, { ok: false, error: "unknown_method" });
    if (!who) return answer(200, { ok: false, error: token === undefined ? "not_authed" : "invalid_auth" });
    const fault = faults.take(method);
    if (fault) {
      if (fault.status === 429) {
        const retryAfter = String(Math.ceil(fault.retryAfterSeconds ?? 1));
        return answer(429, { ok: false, error: "ratelimited" }, { "retry-after": retryAfter });
      }
      return answer(fault.status, { ok: false, error: "fatal_error" });
    }
    const ctx: WebApiContext = {
      world,
      account: who,
      appLevel: app !== undefined,
      params,
      // A client that came through a gate gets its socket link through it too.
      origin: () => new URL(urlAsAddressed(req, origin)).origin,
      issueTicket: (a) => links.issueTicket(a),
    };
    answer(200, implementation(ctx));
  };

  const listener = await listenHttp(handle);
  origin = listener.origin;
  listener.server.on("upgrade", (req, socket, head) => {
    if ((req.url ?? "").startsWith("/link")) links.handleUpgrade(req, socket, head);
    else socket.destroy();
  });

  const accountFor = (botToken: string | undefined): SlackBotAccount => {
    if (botToken === undefined) return first;
    const found = world.byBotToken.get(botToken);
    if (!found) throw new TypeError("unknown bot token for this fake Slack");
    return found;
  };
  /** A message with files shared: `subtype: "file_share"` and a `files` entry each, served at `url_private`. */
  const withFiles = (message: SlackMessage, files: readonly SharedFile[] | undefined): SlackMessage => {
    if (files === undefined || files.length === 0) return message;
    message.subtype = "file_share";
    message.files = files.map((file) => world.files.add(file, listener.origin, world.teamId));
    return message;
  };
  /** `url_private`: the bytes for an installed app's bot token; Slack's sign-in page (a redirect) for anyone else. */
  const serveSharedFile = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const header = req.headers.authorization;
    const token = header?.startsWith("Bearer ") ? header.slice(7) : undefined;
    if (token === undefined || !world.byBotToken.has(token)) {
      res.writeHead(302, { location: "/signin" });
      res.end();
      return;
    }
    const file = world.files.at(path);
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("file_not_found");
      return;
    }
    res.writeHead(200, { "content-type": file.mimetype, "content-length": String(file.bytes.byteLength) });
    res.end(file.bytes);
  };
  const conversation = (id: string): SlackConversation => {
    const found = world.conversations.get(id);
    if (!found) throw new TypeError(`unknown conversation ${id} on this fake Slack`);
    return found;
  };

  const send = async (
    target: SlackBotAccount,
    body: SlackEventBody,
    signing: SlackSigningOverride | undefined,
    retry?: { num: number; reason: string },
  ): Promise<Delivery<SlackEventBody>> => {
    if (options.mode === "socket") {
      const result = await links.send(target, "events_api", body, {
        attempt: retry?.num ?? 0,
        reason: retry?.reason ?? "",
      });
      return result.ok ? { ok: true, item: body } : { ok: false, item: body, reason: result.reason };
    }
    const url = eventsUrls.get(target.appId);
    if (url === undefined) return { ok: false, item: body, reason: "no events URL set: call setEventsUrl()" };
    const request = {
      account: target,
      type: "events_api" as const,
      url,
      body: JSON.stringify(body),
      contentType: "application/json" as const,
      ...(retry ? { retry } : {}),
      ...(signing ? { signing } : {}),
    };
    return postSignedEvent(request, body, log, abort.signal);
  };

  const deliver = (target: SlackBotAccount, event: Record<string, unknown>, signing?: SlackSigningOverride) =>
    send(target, world.eventBody(target, event), signing);

  /**
   * A slash command or an interaction payload: an envelope of that type (Socket Mode), or a signed form POST to
   * the Request URL (HTTP mode), as Slack sends them.
   */
  const interact = async <T>(
    target: SlackBotAccount,
    type: Exclude<EnvelopeType, "events_api">,
    payload: T,
    form: string,
    signing: SlackSigningOverride | undefined,
  ): Promise<Delivery<T>> => {
    if (options.mode === "socket") {
      const result = await links.send(target, type, payload, { attempt: 0, reason: "" });
      return result.ok ? { ok: true, item: payload } : { ok: false, item: payload, reason: result.reason };
    }
    const url = eventsUrls.get(target.appId);
    if (url === undefined) return { ok: false, item: payload, reason: "no events URL set: call setEventsUrl()" };
    const request = {
      account: target,
      type,
      url,
      body: form,
      contentType: "application/x-www-form-urlencoded" as const,
      ...(signing ? { signing } : {}),
    };
    return postSignedEvent(request, payload, log, abort.signal);
  };

  /** Message events go to the DM's owner, or to every app for channels. */
  const deliverMessage = async (
    message: SlackMessage,
    signing: SlackSigningOverride | undefined,
  ): Promise<Delivery<SlackEventBody>> => {
    const where = conversation(message.channel);
    const owner = where.botUserId === undefined ? undefined : accounts.find((a) => a.userId === where.botUserId);
    const targets = owner ? [owner] : accounts;
    const results = await Promise.all(targets.map((target) => deliver(target, world.messageEvent(message), signing)));
    return results.find((r) => !r.ok) ?? (results[0] as Delivery<SlackEventBody>);
  };

  return {
    mode: options.mode,
    apiUrl: `${listener.origin}/api/`,
    botToken: first.botToken,
    appToken: first.appToken,
    signingSecret: first.signingSecret,
    bots: accounts,
    teamId: world.teamId,
    user: world.human,
    otherBot: world.otherBot,
    channels: { general: world.general.id, random: world.random.id },
    calls: log.calls,
    callsTo: (method) => log.callsTo(method),
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    waitForCall: (method, count = 1, timeoutMs) => {
      let seen = 0;
      return log.waitFor((call) => call.method === method && ++seen === count, timeoutMs);
    },
    failNext: (fault) => faults.add(fault),
    addChannel: (name) => world.addChannel(name).id,
    setEventsUrl: (url, bot) => {
      eventsUrls.set(accountFor(bot).appId, url);
    },
    waitForSocket: (bot, timeoutMs = 5_000, count = 1) => links.waitForLink(accountFor(bot), timeoutMs, count),
    socketLinks: (bot) => links.linkCount(accountFor(bot)),
    loseAcks: (count = 1) => links.loseAcks(count),
    injectDm: (inbound) => {
      const target = accountFor(inbound.bot);
      const from = inbound.user ?? world.human;
      const message = withFiles(world.inbound(world.dm(target, from.id).id, from, inbound.text), inbound.files);
      return deliver(target, world.messageEvent(message), inbound.signing);
    },
    injectChannelMessage: (inbound) => {
      const channel = conversation(inbound.channel ?? world.general.id).id;
      const message = withFiles(
        world.inbound(channel, inbound.user ?? world.human, inbound.text, inbound.threadTs),
        inbound.files,
      );
      return deliverMessage(message, inbound.signing);
    },
    injectMention: async (inbound) => {
      const target = accountFor(inbound.bot);
      const channel = conversation(inbound.channel ?? world.general.id).id;
      const from = inbound.user ?? world.human;
      const message = world.inbound(channel, from, `<@${target.userId}> ${inbound.text}`, inbound.threadTs);
      const mention: Record<string, unknown> = {
        type: "app_mention",
        user: from.id,
        text: message.text,
        ts: message.ts,
        channel,
        event_ts: message.ts,
        team: world.teamId,
        client_msg_id: message.client_msg_id,
      };
      if (message.thread_ts !== undefined) mention.thread_ts = message.thread_ts;
      const delivery = deliver(target, mention, inbound.signing);
      if (inbound.alsoAsMessage !== false) await deliverMessage(message, inbound.signing);
      return delivery;
    },
    injectReply: (inbound) => {
      const threadTs = inbound.to.thread_ts ?? inbound.to.ts;
      const message = world.inbound(inbound.to.channel, inbound.user ?? world.human, inbound.text, threadTs);
      return deliverMessage(message, inbound.signing);
    },
    injectBotMessage: (inbound) => {
      const message = world.inbound(conversation(inbound.channel ?? world.general.id).id, world.otherBot, inbound.text);
      return deliverMessage(message, inbound.signing);
    },
    injectSlashCommand: async (inbound) => {
      const target = accountFor(inbound.bot);
      const from = inbound.user ?? world.human;
      const where = conversation(inbound.channel ?? world.general.id);
      const command: SlackSlashCommand = {
        token: "fake-verification-token",
        team_id: world.teamId,
        team_domain: "fake-team",
        channel_id: where.id,
        channel_name: where.isIm ? "directmessage" : where.name,
        user_id: from.id,
        user_name: from.name,
        command: inbound.command.startsWith("/") ? inbound.command : `/${inbound.command}`,
        text: inbound.text ?? "",
        api_app_id: target.appId,
        is_enterprise_install: "false",
        response_url: `${listener.origin}/respond/${randomBytes(8).toString("hex")}`,
        trigger_id: `${Date.now()}.${randomBytes(6).toString("hex")}`,
      };
      return interact(target, "slash_commands", command, new URLSearchParams(command).toString(), inbound.signing);
    },
    injectBlockAction: (inbound) => {
      const target = accountFor(inbound.bot);
      const where = conversation(inbound.message.channel);
      const message = world.messages.get(where.id, inbound.message.ts);
      if (!message) throw new TypeError(`no message ${inbound.message.ts} in ${where.id} on this fake Slack`);
      const payload = blockActionPayload({
        world,
        account: target,
        message,
        button: chooseButton(message, inbound),
        user: inbound.user ?? world.human,
        responseUrl: `${listener.origin}/respond/${randomBytes(8).toString("hex")}`,
      });
      const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      return interact(target, "interactive", payload, form, inbound.signing);
    },
    redeliver: (eventId, reason = options.mode === "http" ? "http_timeout" : "timeout") => {
      const record = world.events.get(eventId);
      if (!record) throw new TypeError(`no event ${eventId} was delivered by this fake Slack`);
      record.retries += 1;
      return send(record.account, record.body, undefined, { num: record.retries, reason });
    },
    disconnectSocket: (opts = {}) => links.disconnect(accountFor(opts.bot), opts.reason ?? "refresh_requested"),
    dropSocket: (opts = {}) => links.drop(accountFor(opts.bot)),
    dmChannel: (bot, user) => world.dm(accountFor(bot), (user ?? world.human).id).id,
    conversation: (channel) => world.messages.history(channel),
    sentFiles: () => world.uploads.sent(),
    close: async () => {
      abort.abort();
      world.uploads.close();
      await links.close();
      log.close();
      await listener.close();
    },
  };
}
