import type { InboundMessage } from "@chorus/channel";
import { stripLeadingMention } from "@chorus/channel";
import { slackAttachmentKind } from "./slack-attachment-kind.js";

/** Who the bot is in one workspace, as needed to read mentions. */
export interface SlackSelf {
  readonly accountId: string;
  readonly botUserId: string;
}

/** The fields of a Slack `message` / `app_mention` event this channel reads. */
export interface SlackMessageEvent {
  readonly type?: string;
  readonly subtype?: string;
  readonly channel?: string;
  readonly channel_type?: string;
  readonly user?: string;
  readonly bot_id?: string;
  readonly username?: string;
  readonly user_profile?: { display_name?: string; real_name?: string };
  readonly text?: string;
  readonly ts?: string;
  readonly thread_ts?: string;
  readonly parent_user_id?: string;
  readonly files?: ReadonlyArray<{
    id?: string;
    name?: string;
    mimetype?: string;
    filetype?: string;
    /** `slack_audio` for a voice clip recorded in Slack, `slack_video` for a video clip. */
    subtype?: string;
    size?: number;
    url_private?: string;
  }>;
}

/** The outer event_callback body: where the event_id lives. */
export interface SlackEventEnvelope {
  readonly event_id?: string;
  readonly team_id?: string;
}

// Message subtypes that are something a person (or another bot) said; edits, joins and deletions are not.
const SPOKEN_SUBTYPES = new Set([undefined, "thread_broadcast", "file_share", "bot_message"]);

/** Contract: whether the bot's user is mentioned anywhere in the text (`<@U…>`). */
export function mentionsSlackBot(text: string, self: SlackSelf): boolean {
  return text.includes(`<@${self.botUserId}>`) || text.includes(`<@${self.botUserId}|`);
}

/**
 * Normalises a Slack message or app_mention event: `im` → "dm", everything else → "group", thread_ts → threadId.
 * eventId is the envelope's event_id (a redelivery carries the same one).
 * Contract: returns undefined for events that are not something said (edits, joins, deletions) or lack a channel.
 */
export function normaliseSlackEvent(
  event: SlackMessageEvent,
  envelope: SlackEventEnvelope,
  self: SlackSelf,
  receivedAt: number,
): InboundMessage | undefined {
  if (!SPOKEN_SUBTYPES.has(event.subtype) || event.channel === undefined || event.ts === undefined) return undefined;
  const text = event.text ?? "";
  const senderId = event.user ?? event.bot_id ?? "";
  const name = event.user_profile?.display_name || event.user_profile?.real_name || event.username || senderId;
  const inbound: InboundMessage = {
    channel: "slack",
    accountId: self.accountId,
    chatType: event.channel_type === "im" ? "dm" : "group",
    chatId: event.channel,
    messageId: event.ts,
    eventId: envelope.event_id ?? event.ts,
    sender: { id: senderId, name, isBot: event.bot_id !== undefined },
    text: stripLeadingMention(text, [`<@${self.botUserId}>`]),
    mentionsBot: event.type === "app_mention" || mentionsSlackBot(text, self),
    replyToBot: event.thread_ts !== undefined && event.parent_user_id === self.botUserId,
    attachments: (event.files ?? []).map((file) => ({
      id: file.id ?? "",
      name: file.name ?? "",
      kind: slackAttachmentKind(file),
      ...(file.mimetype === undefined ? {} : { mimeType: file.mimetype }),
      ...(file.size === undefined ? {} : { sizeBytes: file.size }),
      ...(file.url_private === undefined ? {} : { url: file.url_private }),
    })),
    receivedAt,
  };
  return {
    ...inbound,
    ...(event.thread_ts === undefined ? {} : { threadId: event.thread_ts }),
    ...(envelope.team_id === undefined ? {} : { guildId: envelope.team_id }),
  };
}
