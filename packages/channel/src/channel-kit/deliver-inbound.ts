import type { InboundMessage, InboundSink } from "../channel/channel-types.js";
import { isMessageNotStored } from "../channel/message-not-stored-error.js";

/**
 * What a channel does with each normalised platform event: nothing for an event that is not a message for the gateway
 * (`undefined`), else hands it to the sink; a sink that throws never stops the channel.
 * Contract: the returned function resolves once the sink has (awaited, so one chat's events stay in order where the
 * platform library awaits handlers), and rejects only with `MessageNotStoredError` (a message marked
 * `platformRedelivers` that could not be stored: answer the platform with its retry signal); any other error of the sink
 * goes to `onError`.
 * @example bot.on("message", (ctx) => deliver(normaliseUpdate(ctx.update)));
 */
export function inboundDelivery(
  sink: InboundSink,
  onError: ((error: unknown) => void) | undefined,
): (inbound: InboundMessage | undefined) => Promise<void> {
  return async (inbound) => {
    if (inbound === undefined) return;
    try {
      await sink(inbound);
    } catch (error) {
      // Not stored, and the platform redelivers what is not acknowledged: the channel refuses the event.
      if (isMessageNotStored(error)) throw error;
      onError?.(error);
    }
  };
}
