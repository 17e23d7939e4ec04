import type { InboundMessageStored, NewInboundMessage, SessionStore } from "@chorus/store";
import { isTransientStoreError } from "@chorus/store";

/** How long a message's failed write is tried again, and how far apart (doubling). */
export interface SettleInboundWriteOptions {
  readonly withinMs: number;
  readonly firstPauseMs: number;
  readonly now: () => number;
}

export const DEFAULT_SETTLE_INBOUND_WRITE: Omit<SettleInboundWriteOptions, "now"> = {
  withinMs: 10_000,
  firstPauseMs: 250,
};

/** How far back in a session's transcript a write whose answer was lost is looked for. */
const LOOK_BACK = 50;

/**
 * Resolves a message's write that failed where the platform will not deliver it again: the failure may have come after
 * the write applied (its answer lost), so whether the message is stored is unknown, and telling the sender "not saved"
 * when it was would have it answered twice. The same write is made again (its event id dedupes it) until the store
 * answers or `withinMs` passes: a write that goes through is the message stored now; a duplicate means the first one
 * applied, and its seq is read back from the session's recent transcript.
 * Contract: the stored message, or undefined when the store did not answer in time or refused the write itself (the
 * sender is then told); never rejects.
 */
export async function settleInboundWrite(
  store: SessionStore,
  input: NewInboundMessage,
  failure: unknown,
  options: SettleInboundWriteOptions,
): Promise<InboundMessageStored | undefined> {
  if (!isTransientStoreError(failure)) return undefined;
  const deadline = options.now() + options.withinMs;
  let pause = options.firstPauseMs;
  while (options.now() + pause <= deadline) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause *= 2;
    try {
      const stored = await store.storeInboundMessage(input);
      return stored ?? (await storedEarlier(store, input));
    } catch (error) {
      if (!isTransientStoreError(error)) return undefined;
    }
  }
  return undefined;
}

/** The message an earlier write stored (its answer lost): the newest user entry of the session equal to it. */
async function storedEarlier(store: SessionStore, input: NewInboundMessage): Promise<InboundMessageStored | undefined> {
  const session = await store.getSession(input.session.key);
  if (session === undefined) return undefined;
  const entries = await store.readTranscript(session.key, {
    fromSeq: Math.max(session.transcriptStartSeq, session.lastSeq - LOOK_BACK),
  });
  const wanted = JSON.stringify(input.message);
  const found = entries.findLast((entry) => JSON.stringify(entry.message) === wanted);
  return found === undefined ? undefined : { session, created: false, seq: found.seq };
}
