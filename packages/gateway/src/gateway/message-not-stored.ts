import type { Channel, InboundMessage } from "@chorus/channel";

import { describeError, type GatewayLogger } from "../logging/gateway-logger.js";

/** What a person is told when their message could not be stored, and so was not acted on. */
export const MESSAGE_NOT_STORED_NOTICE =
  "Sorry, I could not save your message (a storage problem on my side), so I have not acted on it. " +
  "Please send it again in a little while.";

/**
 * Tells the sender that their message was not taken, straight through the channel: the outbox lives in the store that
 * just failed. Not durable, on purpose — nothing of the message was kept either, so the platform may deliver it again.
 * Contract: never rejects; a send that fails too is logged.
 */
export async function tellMessageNotStored(
  channel: Channel | undefined,
  message: InboundMessage,
  logger: GatewayLogger,
): Promise<void> {
  if (channel === undefined) return;
  const target = {
    chatType: message.chatType,
    chatId: message.chatId,
    ...(message.threadId === undefined ? {} : { threadId: message.threadId }),
    replyToMessageId: message.messageId,
  };
  try {
    await channel.send(target, { text: MESSAGE_NOT_STORED_NOTICE });
  } catch (error) {
    logger.warn(
      { channel: message.channel, accountId: message.accountId, error: describeError(error) },
      "could not tell the sender that their message was not stored",
    );
  }
}
