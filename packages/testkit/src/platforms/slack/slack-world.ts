import { randomUUID } from "node:crypto";
import { ConversationStore } from "../shared/conversation-store.js";
import { SlackFiles } from "./slack-files.js";
import { SlackTsGenerator } from "./slack-ts.js";
import type { SlackBotAccount, SlackEventBody, SlackMessage } from "./slack-types.js";
import { SlackUploads } from "./slack-uploads.js";

/** A Slack user the fake knows (human or bot user). */
export interface SlackUser {
  readonly id: string;
  readonly name: string;
  readonly isBot: boolean;
  readonly botId?: string;
  readonly appId?: string;
}

/** A conversation: public channel (`C…`) or DM (`D…`). */
export interface SlackConversation {
  readonly id: string;
  readonly name: string;
  readonly isIm: boolean;
  /** For DMs: the human on the other side, and the bot that owns the DM. */
  readonly user?: string;
  readonly botUserId?: string;
}

/** An event the fake generated, kept for redelivery. */
export interface EventRecord {
  readonly account: SlackBotAccount;
  readonly body: SlackEventBody;
  retries: number;
}

/**
 * Everything the fake Slack knows: apps, users, conversations, messages, delivered events.
 * Contract: per-message work is map lookups; message `ts` values are unique and increasing.
 */
export class SlackWorld {
  readonly teamId = "T0FAKE0001";
  readonly ts = new SlackTsGenerator();
  readonly byBotToken = new Map<string, SlackBotAccount>();
  readonly byAppToken = new Map<string, SlackBotAccount>();
  readonly users = new Map<string, SlackUser>();
  readonly conversations = new Map<string, SlackConversation>();
  readonly messages = new ConversationStore<SlackMessage>();
  readonly events = new Map<string, EventRecord>();
  readonly reactions = new Map<string, Set<string>>();
  /** `channel/ts` of messages opened by `chat.startStream` and not yet stopped. */
  readonly openStreams = new Set<string>();
  readonly human: SlackUser = { id: "U0HUMAN001", name: "alice", isBot: false };
  readonly otherBot: SlackUser = {
    id: "U0OTHERBOT",
    name: "other-bot",
    isBot: true,
    botId: "B0OTHERBOT",
    appId: "A0OTHER",
  };
  readonly general: SlackConversation = { id: "C0GENERAL1", name: "general", isIm: false };
  readonly random: SlackConversation = { id: "C0RANDOM01", name: "random", isIm: false };
  #eventCounter = 0;
  #dmCounter = 0;

  constructor(accounts: readonly SlackBotAccount[]) {
    for (const account of accounts) {
      this.byBotToken.set(account.botToken, account);
      this.byAppToken.set(account.appToken, account);
      this.users.set(account.userId, {
        id: account.userId,
        name: account.name,
        isBot: true,
        botId: account.botId,
        appId: account.appId,
      });
    }
    for (const user of [this.human, this.otherBot]) this.users.set(user.id, user);
    for (const conversation of [this.general, this.random]) this.conversations.set(conversation.id, conversation);
  }

  /** Adds a public channel every app is in. */
  addChannel(name: string): SlackConversation {
    const id = `C0${String(this.conversations.size + 1).padStart(8, "0")}`;
    const channel: SlackConversation = { id, name, isIm: false };
    this.conversations.set(id, channel);
    return channel;
  }

  /** The DM between a bot and a user, created on first use. */
  dm(account: SlackBotAccount, userId: string): SlackConversation {
    const key = `dm:${account.userId}:${userId}`;
    const existing = this.conversations.get(key);
    if (existing) return existing;
    this.#dmCounter += 1;
    const dm: SlackConversation = {
      id: `D0${String(this.#dmCounter).padStart(8, "0")}`,
      name: userId,
      isIm: true,
      user: userId,
      botUserId: account.userId,
    };
    this.conversations.set(key, dm);
    this.conversations.set(dm.id, dm);
    return dm;
  }

  /** Stores a message in its conversation, keyed by `ts`. */
  store(message: SlackMessage): SlackMessage {
    this.messages.add(message.channel, message.ts, message);
    return message;
  }

  /** Builds, stores and returns a message written by a human or another bot; its author becomes known to users.info. */
  /** The files people shared (served at `url_private`). */
  readonly files = new SlackFiles();
  /** The files apps upload (`files.uploadV2`): upload URLs issued, bytes received, files completed. */
  readonly uploads = new SlackUploads();

  inbound(channel: string, from: SlackUser, text: string, threadTs?: string): SlackMessage {
    if (!this.users.has(from.id)) this.users.set(from.id, from);
    const ts = this.ts.next();
    const message: SlackMessage = {
      type: "message",
      channel,
      ts,
      text,
      user: from.id,
      team: this.teamId,
      client_msg_id: randomUUID(),
    };
    if (from.botId !== undefined) {
      message.bot_id = from.botId;
      if (from.appId !== undefined) message.app_id = from.appId;
      message.bot_profile = { id: from.botId, app_id: from.appId, name: from.name, team_id: this.teamId };
      delete message.client_msg_id;
    }
    if (threadTs !== undefined) {
      message.thread_ts = threadTs;
      const parent = this.messages.get(channel, threadTs);
      if (parent?.user !== undefined) message.parent_user_id = parent.user;
    }
    return this.store(message);
  }

  /** Wraps an event for one app in an `event_callback` body with a fresh `event_id`. */
  eventBody(account: SlackBotAccount, event: Record<string, unknown>): SlackEventBody {
    this.#eventCounter += 1;
    const body: SlackEventBody = {
      token: "fake-verification-token",
      team_id: this.teamId,
      context_team_id: this.teamId,
      api_app_id: account.appId,
      type: "event_callback",
      event_id: `Ev${String(this.#eventCounter).padStart(10, "0")}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: this.teamId,
          user_id: account.userId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
      event_context: `4-fake-${this.#eventCounter}`,
      event,
    };
    this.events.set(body.event_id, { account, body, retries: 0 });
    return body;
  }

  /** A `message` event for a stored message, as a given app sees it. */
  messageEvent(message: SlackMessage): Record<string, unknown> {
    const conversation = this.conversations.get(message.channel);
    return { ...message, event_ts: message.ts, channel_type: conversation?.isIm ? "im" : "channel" };
  }
}
