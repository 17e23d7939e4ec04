import type { OutboxEntry } from "@chorus/store";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import { asChatPayload } from "./outbox-payloads.js";

/** Tells the bus (`delivery_failed`) and the log that a delivery failed, and whether it will be tried again. */
export function reportDeliveryFailure(
  report: { readonly events: GatewayEventBus; readonly logger: GatewayLogger },
  entry: OutboxEntry,
  failure: { readonly error: string; readonly at: number; readonly willRetry: boolean },
): void {
  const payload = asChatPayload(entry.payload);
  report.events.publish({
    type: "delivery_failed",
    at: failure.at,
    sessionKey: entry.sessionKey,
    channel: payload?.channel ?? "",
    accountId: payload?.accountId ?? "",
    chatId: payload?.target.chatId ?? "",
    error: failure.error,
    attempt: entry.attempts,
    willRetry: failure.willRetry,
  });
  report.logger.warn(
    {
      outboxId: entry.id,
      sessionKey: entry.sessionKey,
      attempt: entry.attempts,
      willRetry: failure.willRetry,
      error: failure.error,
    },
    "delivery failed",
  );
}
