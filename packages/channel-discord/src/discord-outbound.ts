import type { OutboundMessage, SendTarget } from "@chorus/channel";
import { type DiscordButtonRows, discordButtonRowsOf } from "./discord-buttons.js";
import { snowflakeCreatedAt } from "./discord-snowflake.js";

/** Discord's limit on a message nonce; a longer idempotency key is not sent. */
const DISCORD_NONCE_MAX_LENGTH = 25;

/**
 * The body of `POST /channels/{id}/messages` for an outbound message: text, buttons, the reply reference and the
 * idempotency key as Discord's enforced nonce.
 * Contract: pure; mentions of @everyone and roles never ping, nor does the reply.
 */
export function discordSendBody(target: SendTarget, outbound: OutboundMessage): Record<string, unknown> {
  const body: Record<string, unknown> = {
    content: outbound.text,
    // Never let a model's output ping @everyone or roles; replying pings nobody either.
    allowed_mentions: { parse: ["users"], replied_user: false },
  };
  const components = discordButtonRowsOf(outbound.buttons);
  if (components !== undefined) body.components = components;
  // A button press's `interaction:…` id names no message to reply to (Discord would refuse the whole send).
  if (target.replyToMessageId !== undefined && snowflakeCreatedAt(target.replyToMessageId) !== undefined) {
    body.message_reference = { message_id: target.replyToMessageId, fail_if_not_exists: false };
  }
  // Discord returns the earlier message instead of posting a second one with the same nonce (for a few minutes).
  const key = outbound.idempotencyKey;
  if (key !== undefined && key.length <= DISCORD_NONCE_MAX_LENGTH) {
    body.nonce = key;
    body.enforce_nonce = true;
  }
  return body;
}

/**
 * The body of `PATCH /channels/{id}/messages/{id}` for an edit.
 * Contract: pure; always carries `components`, so an edit without buttons removes earlier ones.
 */
export function discordEditBody(outbound: OutboundMessage): { content: string; components: DiscordButtonRows | [] } {
  // Discord keeps the fields a PATCH omits: an edit without buttons sends an empty list, which removes earlier ones
  // (as Telegram's edit drops the keyboard and Slack's the blocks).
  return { content: outbound.text, components: discordButtonRowsOf(outbound.buttons) ?? [] };
}
