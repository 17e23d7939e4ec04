import { randomBytes } from "node:crypto";
import { buttonsOf, type SlackButtonElement } from "./block-kit.js";
import type { SlackBlockActionPayload, SlackBotAccount, SlackMessage } from "./slack-types.js";
import type { SlackUser, SlackWorld } from "./slack-world.js";

/** Which button of a message is pressed: by `action_id`, by `value`, or both. */
export interface ButtonChoice {
  readonly actionId?: string;
  readonly value?: string;
}

/** One press: who pressed which button under which stored message, for which app. */
export interface ButtonPress {
  readonly world: SlackWorld;
  readonly account: SlackBotAccount;
  readonly message: SlackMessage;
  readonly button: SlackButtonElement;
  readonly user: SlackUser;
  /** Where the app may answer the press (the fake records posts to it). */
  readonly responseUrl: string;
}

/**
 * The button of a message that matches a choice.
 * Contract: throws a TypeError (a mistake in the test) when the choice is empty or no button matches.
 */
export function chooseButton(message: SlackMessage, choice: ButtonChoice): SlackButtonElement {
  if (choice.actionId === undefined && choice.value === undefined) {
    throw new TypeError("injectBlockAction: name the button by actionId or value");
  }
  const button = buttonsOf(message.blocks).find(
    (b) =>
      (choice.actionId === undefined || b.action_id === choice.actionId) &&
      (choice.value === undefined || b.value === choice.value),
  );
  if (button === undefined) {
    throw new TypeError(`message ${message.ts} has no button matching ${JSON.stringify(choice)}`);
  }
  return button;
}

/**
 * The `block_actions` payload Slack sends when someone presses a button under a message: who pressed it, the
 * channel, the message as it is now (with its blocks), the container, a fresh trigger_id and the pressed action.
 * Contract: `action_ts` comes from the world's ts clock, so every press has its own; a redelivery reuses the payload.
 */
export function blockActionPayload(press: ButtonPress): SlackBlockActionPayload {
  const { world, account, message, button, user } = press;
  const conversation = world.conversations.get(message.channel);
  const { channel: _channel, ...shown } = message;
  const inThread = message.thread_ts !== undefined;
  const { block_id, ...element } = button;
  return {
    type: "block_actions",
    user: { id: user.id, username: user.name, name: user.name, team_id: world.teamId },
    api_app_id: account.appId,
    token: "fake-verification-token",
    container: {
      type: "message",
      message_ts: message.ts,
      channel_id: message.channel,
      is_ephemeral: false,
      ...(inThread ? { thread_ts: message.thread_ts } : {}),
    },
    trigger_id: `${Date.now()}.${randomBytes(6).toString("hex")}`,
    team: { id: world.teamId, domain: "fake-team" },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: message.channel, name: conversation?.isIm ? "directmessage" : (conversation?.name ?? "") },
    message: shown,
    state: { values: {} },
    response_url: press.responseUrl,
    actions: [{ ...element, block_id, action_ts: world.ts.next() }],
  };
}
