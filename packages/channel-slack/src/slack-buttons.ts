import type { InboundMessage, OutboundButton } from "@chorus/channel";
import type { types as SlackTypes } from "@slack/bolt";
import type { SlackSelf } from "./slack-inbound.js";
import { sectionTexts } from "./slack-section-text.js";

/**
 * The action_id of the buttons this channel puts under its messages (`chorus_button_<index>`); its action handler
 * matches these only, so another handler's buttons never turn into messages.
 */
export const SLACK_BUTTON_ACTION_ID = /^chorus_button_\d+$/;

// Slack's Block Kit limits for buttons: more, or longer, and it refuses the whole message (invalid_blocks).
const MAX_BUTTONS = 25;
const MAX_BUTTON_TEXT = 75;
const MAX_BUTTON_VALUE = 2000;

/**
 * The Block Kit blocks of a message with buttons: its mrkdwn text as section blocks (Slack shows blocks instead of
 * `text`, and a section holds at most 3 000 characters), then one `actions` block with a button per OutboundButton,
 * whose `value` is the button's id and whose `action_id` is `chorus_button_<index>`. The first button is styled
 * "primary"; one whose id is a `/deny` command is "danger" instead.
 * Contract: undefined when there are no buttons (the message is sent as plain text); a button whose id exceeds
 * 2 000 characters is left out, buttons past the 25th are dropped, labels are cut to 75 characters.
 */
export function slackBlocksOf(
  text: string,
  buttons: readonly OutboundButton[] | undefined,
): SlackTypes.KnownBlock[] | undefined {
  const shown = (buttons ?? []).filter((button) => button.id.length <= MAX_BUTTON_VALUE).slice(0, MAX_BUTTONS);
  if (shown.length === 0) return undefined;
  const sections = sectionTexts(text).map(
    (section): SlackTypes.SectionBlock => ({ type: "section", text: { type: "mrkdwn", text: section } }),
  );
  const elements = shown.map((button, index): SlackTypes.Button => {
    const style = /^\/deny(\s|$)/.test(button.id) ? "danger" : index === 0 ? "primary" : undefined;
    return {
      type: "button",
      action_id: `chorus_button_${index}`,
      text: { type: "plain_text", text: labelOf(button), emoji: true },
      value: button.id,
      ...(style === undefined ? {} : { style }),
    };
  });
  return [...sections, { type: "actions", elements }];
}

/** The fields of a `block_actions` payload this channel reads. */
export interface SlackBlockActionBody {
  readonly user?: {
    readonly id?: string;
    readonly username?: string;
    readonly name?: string;
    readonly team_id?: string;
  };
  readonly team?: { readonly id?: string } | null;
  readonly channel?: { readonly id?: string };
  readonly container?: { readonly channel_id?: string; readonly message_ts?: string };
  readonly message?: { readonly ts?: string; readonly thread_ts?: string };
}

/** The fields of the pressed element this channel reads. */
export interface SlackPressedButton {
  readonly type?: string;
  readonly value?: string;
  readonly action_ts?: string;
}

/**
 * A button press as an inbound message from the person who pressed it, whose text is the button's value (its
 * OutboundButton id), in the conversation of the message the button is under, and in its thread when that message
 * is a reply in one. messageId and eventId are `action:<channel>:<message ts>:<user>:<action_ts>`: a new press has a
 * new action_ts, a redelivered one the same.
 * Contract: undefined for anything but a button with a value under a message, and for a press by the app itself.
 */
export function normaliseSlackButtonPress(
  body: SlackBlockActionBody,
  action: SlackPressedButton,
  self: SlackSelf,
  receivedAt: number,
): InboundMessage | undefined {
  const userId = body.user?.id;
  const chatId = body.channel?.id ?? body.container?.channel_id;
  const messageTs = body.message?.ts ?? body.container?.message_ts;
  if (action.type !== "button" || action.value === undefined || action.value.length === 0) return undefined;
  if (userId === undefined || chatId === undefined || messageTs === undefined) return undefined;
  // Slack's payload does not say whether the presser is a bot; only people press buttons in Slack's clients, but
  // the app's own user must never answer its own request.
  if (userId === self.botUserId) return undefined;
  const id = `action:${chatId}:${messageTs}:${userId}:${action.action_ts ?? receivedAt}`;
  const inbound: InboundMessage = {
    channel: "slack",
    accountId: self.accountId,
    chatType: chatId.startsWith("D") ? "dm" : "group",
    chatId,
    messageId: id,
    eventId: id,
    sender: { id: userId, name: body.user?.name ?? body.user?.username ?? userId, isBot: false },
    text: action.value,
    // A button under the app's own message is addressed to the app.
    mentionsBot: true,
    replyToBot: true,
    attachments: [],
    receivedAt,
  };
  // A thread's parent carries thread_ts equal to its own ts: a press on it belongs to the channel, not the thread.
  const threadTs = body.message?.thread_ts;
  const teamId = body.team?.id ?? body.user?.team_id;
  return {
    ...inbound,
    ...(threadTs === undefined || threadTs === messageTs ? {} : { threadId: threadTs }),
    ...(teamId === undefined ? {} : { guildId: teamId }),
  };
}

function labelOf(button: OutboundButton): string {
  const label = button.label.length > 0 ? button.label : button.id;
  return label.length <= MAX_BUTTON_TEXT ? label : `${label.slice(0, MAX_BUTTON_TEXT - 1)}…`;
}
