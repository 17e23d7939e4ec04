import { memoryMarkFor } from "../memory-mark.js";
import type { InboundMessageStored, NewInboundMessage } from "../store-types.js";
import type { SessionStoreCore } from "./store-core.js";

/**
 * Records the inbound event id, ensures the session and appends the user's message in one transaction of `core`.
 * Contract: all or nothing; `undefined` (nothing written) when the event id was seen within the TTL.
 */
export function storeInboundMessageOn(
  core: SessionStoreCore,
  input: NewInboundMessage,
): InboundMessageStored | undefined {
  return core.atomically(() => {
    if (!core.recordInboundEvent(input.event)) return undefined;
    const { session, created } = core.ensureSession(input.session);
    // Memory on or off is read in this transaction: a `/memory off` stored before this message covers it.
    const memory = input.memoryTier === undefined ? {} : { memory: memoryMarkFor(session.settings, input.memoryTier) };
    const appended = core.appendMessages(input.session.key, [input.message], { inbound: true, ...memory });
    return { session, created, seq: appended.firstSeq };
  });
}
