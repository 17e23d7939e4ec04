import type { CallPredicate, RecordedCall } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import type { FaultSpec } from "../shared/fault-plan.js";
import type { ButtonChoice } from "./block-actions.js";
import type { SharedFile } from "./slack-files.js";
import type {
  SlackBlockActionPayload,
  SlackBotAccount,
  SlackEventBody,
  SlackMessage,
  SlackSigningOverride,
  SlackSlashCommand,
} from "./slack-types.js";
import type { SlackSentFile } from "./slack-uploads.js";
import type { SlackUser } from "./slack-world.js";

/** An app + bot user to create on the fake Slack. */
export interface SlackBotSpec {
  readonly botToken?: string;
  readonly appToken?: string;
  readonly signingSecret?: string;
  readonly name?: string;
}

/** Options for `startFakeSlack`. */
export interface FakeSlackOptions {
  /** `socket`: events over Socket Mode links; `http`: signed POSTs to the app's Request URL. */
  readonly mode: "socket" | "http";
  /** Apps, keyed by their tokens. Default: one app, `chorus-test-bot`. */
  readonly bots?: readonly SlackBotSpec[];
  /** Keep at most this many recorded calls (the oldest half is dropped when full). Default: all. */
  readonly callLogLimit?: number;
  /** WS ping interval on Socket Mode links (0 = never). Default 5 000 ms. */
  readonly pingIntervalMs?: number;
  /**
   * Socket Mode: an `events_api` envelope left unacked this long is sent again on another of the app's links, with
   * `retry_attempt` + 1 and `retry_reason` "timeout", at most 3 times (Slack's behaviour; Slack waits about 3 s).
   * Default 0: an envelope waits for its ack, or is redelivered only when its link dies.
   */
  readonly eventAckTimeoutMs?: number;
  /**
   * How long after `files.completeUploadExternal` an uploaded file's message appears in its channel. Slack shares a
   * file asynchronously, and its completion answer often has no `shares` yet (`files.info` shows them later); with a
   * delay the fake does the same. Default 0: the file is shared before the completion answers, `shares` included.
   */
  readonly fileShareDelayMs?: number;
}

/** An injected message: who says what, to which app. */
export interface SlackInbound {
  readonly text: string;
  /** Author; default the fake's human `user`. */
  readonly user?: SlackUser;
  /** Bot token of the app that receives it (DMs) or is mentioned. Default: the first app. */
  readonly bot?: string;
  /** HTTP mode only: tamper with the signature or timestamp of this delivery. */
  readonly signing?: SlackSigningOverride;
  /**
   * Files shared with the message (`subtype: "file_share"`, a `files` entry each): their bytes are served at
   * `url_private` with an installed app's bot token only; without it Slack's sign-in page (HTML) comes back.
   */
  readonly files?: readonly SharedFile[];
}

/** Handle to a running fake Slack (Web API + event delivery). */
export interface FakeSlack {
  readonly mode: "socket" | "http";
  /** Pass as `clientOptions.slackApiUrl`: `http://127.0.0.1:PORT/api/`. */
  readonly apiUrl: string;
  /** Tokens and signing secret of the first app. */
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly bots: readonly SlackBotAccount[];
  readonly teamId: string;
  /** The default human author. */
  readonly user: SlackUser;
  /** Another app's bot user that can post messages. */
  readonly otherBot: SlackUser;
  /** Public channels every app is in. */
  readonly channels: { readonly general: string; readonly random: string };
  /** Every Web API call, `response_url` post and event/command ack, in arrival order. */
  readonly calls: readonly RecordedCall[];
  callsTo(method: string): readonly RecordedCall[];
  waitFor(predicate: CallPredicate, timeoutMs?: number): Promise<RecordedCall>;
  /** The `count`-th call of `method` (1-based, default 1). */
  waitForCall(method: string, count?: number, timeoutMs?: number): Promise<RecordedCall>;
  /** Makes the next matching Web API call(s) fail with 429 (`Retry-After`) or a 5xx. */
  failNext(fault: FaultSpec): void;
  /** Adds a public channel every app is in; returns its id. */
  addChannel(name: string): string;
  /** HTTP mode: where to POST events and commands for an app (default the first). */
  setEventsUrl(url: string, bot?: string): void;
  /**
   * Socket mode: resolves once the app has `count` (default 1) open links that got `hello`. An app may hold several
   * (Slack allows 10, e.g. one per instance of a clustered app): envelopes are spread over them round-robin.
   */
  waitForSocket(bot?: string, timeoutMs?: number, count?: number): Promise<void>;
  /** Socket mode: how many open links the app (default the first) holds now. */
  socketLinks(bot?: string): number;
  /**
   * Socket mode: the next `count` (default 1) acks the fake receives are lost on the way (recorded as `lost-ack`
   * calls); with `eventAckTimeoutMs` their events are then sent again on another link, as Slack retries an unacked
   * envelope. Every `ack` and `lost-ack` call has `params.link`: the link's number ("1", "2" … in the order they opened).
   */
  loseAcks(count?: number): void;
  /** DM (`message`, `channel_type: "im"`) to one app. */
  injectDm(inbound: SlackInbound): Promise<Delivery<SlackEventBody>>;
  /** Channel message (`channel_type: "channel"`) to every app; `threadTs` puts it in a thread. */
  injectChannelMessage(
    inbound: SlackInbound & { readonly channel?: string; readonly threadTs?: string },
  ): Promise<Delivery<SlackEventBody>>;
  /**
   * `<@BOT> text` in a channel: an `app_mention` to the mentioned app (the returned delivery)
   * and, as Slack does, a `message` event to every app unless `alsoAsMessage` is false.
   */
  injectMention(
    inbound: SlackInbound & { readonly channel?: string; readonly threadTs?: string; readonly alsoAsMessage?: boolean },
  ): Promise<Delivery<SlackEventBody>>;
  /** Thread reply to an earlier message (e.g. one the bot posted). */
  injectReply(inbound: SlackInbound & { readonly to: SlackMessage }): Promise<Delivery<SlackEventBody>>;
  /** Message posted by `otherBot` (has `bot_id`). */
  injectBotMessage(
    inbound: Omit<SlackInbound, "user"> & { readonly channel?: string },
  ): Promise<Delivery<SlackEventBody>>;
  /** Slash command (`/ask text`) from a user in a channel. */
  injectSlashCommand(inbound: {
    readonly command: string;
    readonly text?: string;
    readonly channel?: string;
    readonly user?: SlackUser;
    readonly bot?: string;
    readonly signing?: SlackSigningOverride;
  }): Promise<Delivery<SlackSlashCommand>>;
  /**
   * A press of a button under a message the fake stores (e.g. one the bot posted with blocks): a `block_actions`
   * payload with the message as it is now, from `user` (default the fake's human), in an `interactive` envelope
   * (Socket Mode) or as a signed form POST `payload=<json>` (HTTP mode). The app's ack is recorded as an `ack` call
   * with `params.type` "interactive"; in Socket Mode an envelope left unacked for 3 s settles `ok: false`, as Slack
   * gives up then. Throws a TypeError when the message is unknown or has no such button.
   */
  injectBlockAction(
    inbound: ButtonChoice & {
      readonly message: SlackMessage;
      readonly user?: SlackUser;
      readonly bot?: string;
      readonly signing?: SlackSigningOverride;
    },
  ): Promise<Delivery<SlackBlockActionPayload>>;
  /** Delivers an event again with the same `event_id`: retry headers (HTTP) or `retry_attempt` (socket). */
  redeliver(eventId: string, reason?: string): Promise<Delivery<SlackEventBody>>;
  /** Socket mode: sends `disconnect` (default reason `refresh_requested`); the client reconnects. */
  disconnectSocket(options?: { readonly bot?: string; readonly reason?: string }): number;
  /** Socket mode: cuts the links; unacked envelopes are redelivered on the next link. */
  dropSocket(options?: { readonly bot?: string }): number;
  /** The DM between an app (default first) and a user (default `user`). */
  dmChannel(bot?: string, user?: SlackUser): string;
  /** Messages of one conversation, oldest first (inbound and bot-sent). */
  conversation(channel: string): SlackMessage[];
  /**
   * Files apps uploaded through `files.uploadV2` (getUploadURLExternal, the bytes POSTed to the upload URL,
   * completeUploadExternal), oldest first: the bytes as they arrived, where they were shared and the message's `ts`.
   */
  sentFiles(): SlackSentFile[];
  close(): Promise<void>;
}
