import type { InboundMessage, InboundSink } from "../channel/channel-types.js";

/**
 * What a channel does with each normalised platform event: nothing for an event that is not a message for the gateway
 * (`undefined`), else hands it to the sink; a sink that throws never stops the channel.
 * Contract: the returned function resolves once the sink has (awaited, so one chat's events stay in order where the
 * platform library awaits handlers), and never rejects: the sink's error goes to `onError`.
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
      onError?.(error);
    }
  };
}
