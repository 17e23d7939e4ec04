import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  AttachmentLocation,
  Channel,
  ChannelAccountOptions,
  ChannelCapabilities,
  FetchAttachmentOptions,
  FetchedAttachment,
  InboundMessage,
  InboundSink,
  OutboundFile,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "@chorus/channel";
import {
  ChannelError,
  ChannelOptionsError,
  ClientSlot,
  EditBudget,
  inboundDelivery,
  isMessageNotStored,
  requireOption,
} from "@chorus/channel";
import type { App } from "@slack/bolt";
import {
  normaliseSlackButtonPress,
  SLACK_BUTTON_ACTION_ID,
  type SlackBlockActionBody,
  type SlackPressedButton,
  slackBlocksOf,
} from "./slack-buttons.js";
import { normaliseSlackCommand, SLACK_SLASH_COMMANDS, type SlackSlashCommandPayload } from "./slack-commands.js";
import { slackPlatformError, toSlackChannelError } from "./slack-errors.js";
import { fetchSlackAttachment } from "./slack-fetch-attachment.js";
import {
  mentionsSlackBot,
  normaliseSlackEvent,
  type SlackEventEnvelope,
  type SlackMessageEvent,
  type SlackSelf,
} from "./slack-inbound.js";
import { forwardingSlackLogger } from "./slack-logger.js";
import { SLACK_MAX_UPLOAD_BYTES, uploadSlackFile } from "./slack-send-file.js";
import { slackWebFetch } from "./slack-web-fetch.js";

/** Thrown for an event that reaches a stopping HTTP-mode channel: answered 500, so Slack sends it again. */
const STOPPING = new ChannelError("network", "the Slack channel is stopping");

/** Options of one Slack app, one workspace install (with `accountId`, `onError` and `now` of ChannelAccountOptions). */
export interface SlackChannelOptions extends ChannelAccountOptions {
  /** Socket Mode (needs appToken) or HTTP (needs signingSecret; events at `/slack/events`). */
  readonly mode: "socket" | "http";
  /** `xoxb-…` bot token. Never logged. */
  readonly botToken: string;
  /** `xapp-…` app-level token, for Socket Mode. */
  readonly appToken?: string;
  /** Signing secret, for HTTP mode: bolt refuses bad signatures and stale timestamps with 401. */
  readonly signingSecret?: string;
  /** HTTP mode: port to listen on (default 0, any free port) and address (default 127.0.0.1). */
  readonly port?: number;
  readonly host?: string;
  /** Web API base, e.g. a test server's `http://127.0.0.1:PORT/api/`; default Slack's. */
  readonly slackApiUrl?: string;
  /**
   * Socket Mode: how long to wait for a pong before the link counts as dead; the client also waits this long (times
   * the failures in a row) before reconnecting. Default 5 000 ms (bolt's).
   */
  readonly clientPingTimeoutMs?: number;
  /**
   * Socket Mode: the longest pause between attempts to reach Slack again once the link dropped; attempts never stop.
   * Default 30 000 ms. (The socket client's own policy pauses 1.3× longer each time without a cap: after an hour's
   * outage it could be a quarter of an hour before it tried again.)
   */
  readonly reconnectMaxDelayMs?: number;
  /**
   * How long one Web API call may take before it is given up (the WebClient's default is no limit: a call on a
   * connection that died silently waited for undici's 300 s, and in Socket Mode the relink waited with it).
   * Default 15 000 ms.
   */
  readonly requestTimeoutMs?: number;
  /**
   * The app's Web API calls retry a failure twice before it reaches the caller: after this pause, then after twice
   * it (at most 1 000 ms), plus any retry-after Slack asks for. Default 500 ms; tests of retries shorten it.
   */
  readonly webApiRetryDelayMs?: number;
  /** Deliver every message in channels the app is in, not only mentions. Default false. */
  readonly respondToAllMessages?: boolean;
  /**
   * Answer a top-level message in a thread under it (a send's replyToMessageId starts the thread). Default false:
   * Slack has no quoted replies, and a thread would split the conversation from the channel's session.
   */
  readonly replyInThread?: boolean;
  /** Reaction shown on the asked message while the agent works. Default "eyes". */
  readonly workingReaction?: string;
}

/**
 * What Slack allows: chunks of at most 3 500 characters in mrkdwn (Slack rejects large blocks), threads, and
 * Block Kit buttons under a message.
 */
export const SLACK_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 3500,
  edit: true,
  delete: true,
  typing: true,
  threads: true,
  reactions: true,
  buttons: true,
  markup: "slack-mrkdwn",
  // chat.update is a Tier 3 method (~50 a minute); one edit a second per conversation stays well inside it.
  editRate: { edits: 1, perMs: 1000 },
  maxUploadBytes: SLACK_MAX_UPLOAD_BYTES,
};

const MAX_REMEMBERED_CONVERSATIONS = 10_000;

/** How the Socket Mode client retries `apps.connections.open` to relink: forever, at most `maxDelayMs` apart. */
function reconnectRetries(maxDelayMs: number) {
  return { forever: true, retries: 20, factor: 1.3, minTimeout: Math.min(1000, maxDelayMs), maxTimeout: maxDelayMs };
}

/**
 * Retries of the app's Web API calls: two, `firstDelayMs` and then twice that apart (at most 1 s; by default about
 * 1.5 s of them, plus any retry-after), then the caller decides.
 */
function appClientRetries(firstDelayMs: number) {
  return { retries: 2, factor: 2, minTimeout: firstDelayMs, maxTimeout: Math.max(1000, firstDelayMs) };
}

interface WorkingMark {
  readonly channel: string;
  readonly ts: string;
  /** The add call; a send that lands while it is under way waits for it, so the removal cannot come first. */
  readonly added: Promise<boolean>;
}

/**
 * A Slack app as a Channel, over @slack/bolt (loaded on start), in Socket Mode or HTTP mode.
 * DMs arrive as "dm"; channel messages that mention the app (or all, with respondToAllMessages) and thread replies
 * to the app as "group"; `/agents` and `/chorus <command>` as messages with an ephemeral responder; a press of a
 * button under one of its messages as a message whose text is the button's id.
 * Contract: a send with a threadId lands in that thread (with replyInThread, a replyToMessageId starts one);
 * `typing` marks the asked message with a reaction that the next send to that conversation removes; errors are
 * ChannelErrors.
 */
export class SlackChannel implements Channel {
  readonly id = "slack";
  readonly accountId: string;
  readonly capabilities = SLACK_CAPABILITIES;

  readonly #options: SlackChannelOptions;
  readonly #now: () => number;
  readonly #budget: EditBudget;
  readonly #working = new Map<string, WorkingMark>();
  // The latest message someone sent per conversation, so `typing` without a replyToMessageId (DMs) can mark it.
  readonly #lastAsked = new Map<string, string>();
  readonly #app = new ClientSlot<App>("slack", toSlackChannelError);
  #self: SlackSelf | undefined;
  #eventsUrl: string | undefined;
  /** HTTP mode: the events server, whose kept-open connections a stop closes at once. */
  #server: Server | undefined;

  constructor(options: SlackChannelOptions) {
    requireOption("slack", "accountId", options.accountId);
    requireOption("slack", "botToken", options.botToken);
    if (options.mode === "socket") requireOption("slack", "appToken", options.appToken);
    else if (options.mode === "http") requireOption("slack", "signingSecret", options.signingSecret);
    else throw new ChannelOptionsError(`slack channel: mode must be "socket" or "http", got "${String(options.mode)}"`);
    this.accountId = options.accountId;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#budget = new EditBudget(SLACK_CAPABILITIES.editRate, this.#now);
  }

  /** HTTP mode, once started: the URL of this app's event endpoint (`…/slack/events`). */
  get eventsUrl(): string | undefined {
    return this.#eventsUrl;
  }

  /** The app's bot user id once started. */
  get botUserId(): string | undefined {
    return this.#self?.botUserId;
  }

  async start(sink: InboundSink): Promise<void> {
    this.#app.claim();
    const bolt = await import("@slack/bolt");
    const options = this.#options;
    const clientOptions = options.slackApiUrl === undefined ? {} : { slackApiUrl: options.slackApiUrl };
    // The app's client (sends, edits, reactions) absorbs a blip or a short 429 streak; a longer outage fails the call
    // as `network` and the outbox retries it. Its own object: the Socket Mode client writes its reconnect policy into
    // the options it is given (its default: 100 retries, delays growing by 1.3× without a cap), and sharing them gave
    // the app's sends that policy too — a reply could wait inside the WebClient long after Slack was back.
    const timeout = options.requestTimeoutMs ?? 15_000;
    // Its fetch keeps the time limit itself (the WebClient's own `timeout` makes an AbortSignal.timeout per call).
    const appClientOptions = {
      ...clientOptions,
      fetch: slackWebFetch(timeout),
      retryConfig: appClientRetries(options.webApiRetryDelayMs ?? 500),
    };
    const logLevel = bolt.LogLevel.ERROR;
    const logger = forwardingSlackLogger(options.onError, logLevel);
    await this.#app.connect(
      async () => {
        // One try, not the WebClient's default ten retries over about 30 minutes: an unreachable Slack fails the start
        // at once, and whoever starts the channel decides when to try again.
        const probe = new bolt.webApi.WebClient(options.botToken, {
          ...clientOptions,
          logger,
          retryConfig: { retries: 0 },
        });
        const auth = await probe.auth.test();
        if (typeof auth.user_id !== "string")
          throw new ChannelError("forbidden", "slack auth.test returned no user_id");
        this.#self = { accountId: this.accountId, botUserId: auth.user_id };
        const botIds = { botUserId: auth.user_id, ...(typeof auth.bot_id === "string" ? { botId: auth.bot_id } : {}) };
        // Built once the probe knows the bot's ids: given them, Bolt makes no auth.test of its own — it would start one in
        // its constructor and, with Slack unreachable, leave it to reject unhandled (which ends the process).
        const app =
          options.mode === "socket"
            ? new bolt.App({
                token: options.botToken,
                ...botIds,
                logger,
                convoStore: false,
                clientOptions: appClientOptions,
                receiver: new bolt.SocketModeReceiver({
                  appToken: options.appToken ?? "",
                  logger,
                  installerOptions: {
                    clientOptions: {
                      ...clientOptions,
                      timeout,
                      retryConfig: reconnectRetries(options.reconnectMaxDelayMs ?? 30_000),
                    },
                  },
                  ...(options.clientPingTimeoutMs === undefined
                    ? {}
                    : { clientPingTimeout: options.clientPingTimeoutMs }),
                }),
              })
            : new bolt.App({
                token: options.botToken,
                ...botIds,
                signingSecret: options.signingSecret ?? "",
                // Ack an event only once the gateway stored it: an ack before that loses the event if this process dies
                // in between (Slack does not send it again), and lets a chat's next message overtake it.
                processBeforeResponse: true,
                logger,
                // Bolt's conversation store keeps state per conversation for every event; the gateway keeps its own.
                convoStore: false,
                clientOptions: appClientOptions,
              });
        this.#app.hold(app);
        const deliverInbound = inboundDelivery(sink, options.onError);
        const deliver = async (inbound: InboundMessage | undefined, asked = true): Promise<void> => {
          if (inbound !== undefined && asked && inbound.interaction === undefined) this.#rememberAsked(inbound);
          await deliverInbound(inbound);
        };
        // HTTP Events: an event is acked only once stored, and one answered non-2xx (Bolt's 500 for a listener's error)
        // is sent again by Slack — so one that could not be stored is refused rather than acked. Socket Mode acks first.
        const deliverEvent = (inbound: InboundMessage | undefined): Promise<void> =>
          deliver(
            inbound === undefined || options.mode === "socket" ? inbound : { ...inbound, platformRedelivers: true },
          );
        // An event reaching a channel that is stopping (over a connection kept open) is refused, not acked and dropped:
        // Slack sends it again, to another instance behind a balancer.
        const stopping = (): undefined => {
          if (options.mode === "http") throw STOPPING;
          return undefined;
        };
        app.message(async ({ message, body }) => {
          const self = this.#self;
          if (self === undefined) return stopping();
          const event = message as SlackMessageEvent;
          const envelope = body as SlackEventEnvelope;
          if (!this.#wants(event, self)) return;
          await deliverEvent(normaliseSlackEvent(event, envelope, self, this.#now()));
        });
        app.event("app_mention", async ({ event, body }) => {
          const self = this.#self;
          // With respondToAllMessages the same words also arrive as a `message` event; deliver them once.
          if (self === undefined) return stopping();
          if (options.respondToAllMessages === true) return;
          await deliverEvent(
            normaliseSlackEvent(event as SlackMessageEvent, body as SlackEventEnvelope, self, this.#now()),
          );
        });
        for (const name of SLACK_SLASH_COMMANDS) {
          app.command(name, async ({ command, ack, respond }) => {
            // Slack wants the ack within 3 s; the answer follows through the response_url.
            await ack();
            await deliver(
              normaliseSlackCommand(command as SlackSlashCommandPayload, respond, this.accountId, this.#now()),
            );
          });
        }
        // A button press: acked at once (Slack shows an error after 3 s), then handled as a message from the presser.
        app.action({ type: "block_actions", action_id: SLACK_BUTTON_ACTION_ID }, async ({ ack, body, action }) => {
          await ack();
          const self = this.#self;
          if (self === undefined) return;
          const press = normaliseSlackButtonPress(
            body as SlackBlockActionBody,
            action as SlackPressedButton,
            self,
            this.#now(),
          );
          // Not remembered as the asked message: a press has no Slack message of its own to put the working reaction on.
          await deliver(press, false);
        });
        app.error(async (error) => {
          // Bolt wraps a listener's error; rethrown, a refusal makes Bolt answer 500 so Slack sends the event again.
          const cause = (error as { original?: unknown }).original ?? error;
          if (isMessageNotStored(cause) || cause === STOPPING) throw cause;
          options.onError?.(error);
        });
        if (options.mode === "socket") {
          await app.start();
        } else {
          const host = options.host ?? "127.0.0.1";
          const server = (await app.start({ port: options.port ?? 0, host })) as Server;
          this.#server = server;
          this.#eventsUrl = `http://${host}:${(server.address() as AddressInfo).port}/slack/events`;
        }
      },
      () => this.stop(),
    );
  }

  async stop(): Promise<void> {
    const app = this.#app.release();
    const server = this.#server;
    this.#server = undefined;
    // Bolt's stop closes the server, which waits for its kept-open connections (a balancer's) to go idle — while events
    // keep coming over them. Closed at once: a request under way is answered by no one, and Slack sends it again.
    const stopped = app?.stop().catch(() => undefined);
    server?.closeAllConnections();
    this.#self = undefined;
    this.#eventsUrl = undefined;
    this.#working.clear();
    this.#lastAsked.clear();
    this.#budget.clear();
    await stopped;
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    const replyTo = slackTsOrUndefined(target.replyToMessageId);
    const threadTs = target.threadId ?? (this.#options.replyInThread === true ? replyTo : undefined);
    const blocks = slackBlocksOf(outbound.text, outbound.buttons);
    const sent = await this.#app.call("send", (app) =>
      app.client.chat.postMessage({
        channel: target.chatId,
        // With blocks, Slack shows the blocks and uses the text for notifications.
        text: outbound.text,
        mrkdwn: true,
        unfurl_links: false,
        ...(blocks === undefined ? {} : { blocks }),
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      }),
    );
    await this.#clearWorking(target);
    const result: SentMessage = { messageId: sent.ts ?? "", chatId: target.chatId, sentAt: this.#now() };
    return threadTs === undefined ? result : { ...result, threadId: threadTs };
  }

  /**
   * Uploads the file through `files.uploadV2`, the caption as its comment, in the thread a send would use; like a send,
   * it ends the conversation's working reaction. See `uploadSlackFile` for the message id.
   */
  async sendFile(target: SendTarget, file: OutboundFile): Promise<SentMessage> {
    const replyTo = slackTsOrUndefined(target.replyToMessageId);
    const threadTs = target.threadId ?? (this.#options.replyInThread === true ? replyTo : undefined);
    const ts = await this.#app.call("sendFile", (app) => uploadSlackFile(app.client, target.chatId, threadTs, file));
    await this.#clearWorking(target);
    const result: SentMessage = { messageId: ts, chatId: target.chatId, sentAt: this.#now() };
    return threadTs === undefined ? result : { ...result, threadId: threadTs };
  }

  async edit(message: SentMessage, outbound: OutboundMessage): Promise<void> {
    this.#budget.take(message.chatId);
    // Slack keeps a message's blocks when an update leaves them out, and shows them over the new text: an edit
    // without buttons sends an empty list, which removes earlier ones (as Telegram's edit drops the keyboard).
    const blocks = slackBlocksOf(outbound.text, outbound.buttons) ?? [];
    await this.#app.call("edit", (app) =>
      app.client.chat.update({ channel: message.chatId, ts: message.messageId, text: outbound.text, blocks }),
    );
  }

  async delete(message: SentMessage): Promise<void> {
    await this.#app.call("delete", (app) => app.client.chat.delete({ channel: message.chatId, ts: message.messageId }));
  }

  /**
   * Marks the asked message with the working reaction: replyToMessageId, else the latest message someone sent in
   * that conversation (a DM), else the thread's root.
   */
  async typing(target: SendTarget): Promise<void> {
    const ts =
      slackTsOrUndefined(target.replyToMessageId) ??
      this.#lastAsked.get(workingKey(target.chatId, target.threadId)) ??
      target.threadId;
    if (ts === undefined) return;
    const key = workingKeyOf(target);
    if (this.#working.has(key)) return;
    const adding = this.#reaction("add", target.chatId, ts, this.#options.workingReaction ?? "eyes");
    // Marked before the call resolves: a reply sent meanwhile still removes the reaction (after the add).
    const mark = {
      channel: target.chatId,
      ts,
      added: adding.then(
        () => true,
        () => false,
      ),
    };
    this.#working.set(key, mark);
    try {
      await adding;
    } catch (error) {
      if (this.#working.get(key) === mark) this.#working.delete(key);
      throw error;
    }
  }

  /** Removes the working reaction of the conversation, if any (a streamed answer ends with an edit, not a send). */
  async stopTyping(target: SendTarget): Promise<void> {
    await this.#clearWorking(target);
  }

  /**
   * Downloads a file someone shared from its `url_private` (`location.url`) with the bot token, from files.slack.com or
   * the configured Slack API's origin only; see `fetchSlackAttachment`.
   */
  async fetchAttachment(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
    const { botToken, slackApiUrl } = this.#options;
    const source = slackApiUrl === undefined ? { botToken } : { botToken, slackApiUrl };
    return fetchSlackAttachment(source, location, options);
  }

  async react(message: SentMessage, emoji: string): Promise<void> {
    await this.#reaction("add", message.chatId, message.messageId, emoji.replace(/^:|:$/g, ""));
  }

  #rememberAsked(inbound: InboundMessage): void {
    const key = workingKey(inbound.chatId, inbound.threadId);
    this.#lastAsked.delete(key);
    this.#lastAsked.set(key, inbound.messageId);
    // Bounded: the oldest conversations are forgotten first.
    if (this.#lastAsked.size > MAX_REMEMBERED_CONVERSATIONS) {
      const oldest = this.#lastAsked.keys().next().value;
      if (oldest !== undefined) this.#lastAsked.delete(oldest);
    }
  }

  #wants(event: SlackMessageEvent, self: SlackSelf): boolean {
    if (event.channel_type === "im") return true;
    if (this.#options.respondToAllMessages === true) return true;
    // A reply in a thread the app started counts, unless it mentions the app (app_mention delivers those).
    return event.parent_user_id === self.botUserId && !mentionsSlackBot(event.text ?? "", self);
  }

  async #clearWorking(target: SendTarget): Promise<void> {
    const key = workingKeyOf(target);
    const mark = this.#working.get(key);
    if (mark === undefined) return;
    this.#working.delete(key);
    // Never added (the add failed): nothing to remove.
    if (!(await mark.added)) return;
    await this.#reaction("remove", mark.channel, mark.ts, this.#options.workingReaction ?? "eyes").catch(
      () => undefined,
    );
  }

  async #reaction(action: "add" | "remove", channel: string, timestamp: string, name: string): Promise<void> {
    try {
      await this.#app.call("react", (app) => app.client.reactions[action]({ channel, timestamp, name }));
    } catch (error) {
      const code = slackPlatformError(error);
      if (code === "already_reacted" || code === "no_reaction") return;
      throw error;
    }
  }
}

// A replyToMessageId may be a button press's `action:…` id, which names no Slack message to thread under or mark.
function slackTsOrUndefined(id: string | undefined): string | undefined {
  return id !== undefined && /^\d+\.\d+$/.test(id) ? id : undefined;
}

function workingKey(chatId: string, threadTs: string | undefined): string {
  return `${chatId}:${threadTs ?? ""}`;
}

// typing and the send that answers carry the same target, so they agree on this key.
function workingKeyOf(target: SendTarget): string {
  return workingKey(target.chatId, target.threadId ?? target.replyToMessageId);
}
