import type { IngressLease } from "@chorus/channel";
import type { ReplayFirstInbound } from "./replay-first-inbound.js";
import type { ShardSession } from "./shard-session-replay.js";

/** How often a shard's sequence is saved with its lease at most. */
const SHARD_SAVE_MS = 1000;
/** A message the gateway never answers for (a dispatch discord.js did not emit) stops holding the sequence back. */
const HANDED_ON_WITHIN_MS = 30_000;

/** A raw gateway packet as discord.js's Raw event gives it. */
export interface RawGatewayPacket {
  t?: string | null;
  s?: number | null;
  d?: unknown;
}

/**
 * Keeps a shard's session id and sequence saved with its lease (at most every second), for whoever holds the shard
 * next; not while live messages are held back (a holder dying then would leave them behind the saved sequence). The
 * sequence saved is the last one below every message not yet handed on to the gateway (stored, or refused): a holder
 * killed after saving a message's sequence but before storing the message would otherwise leave it to no one — the
 * next holder's RESUME replays only what came after the saved sequence.
 * Contract: `observe` every raw packet of the shard's own socket and call `handedOn` once each message's delivery
 * settled; dispatches replayed inside `whileReplaying` are not counted; `save` is a no-op before READY or while
 * `inbound` holds.
 */
export class ShardSessionRecorder {
  readonly #lease: IngressLease;
  readonly #inbound: ReplayFirstInbound;
  #session: { sessionId: string | undefined; resumeUrl: string | undefined; sequence: number } = {
    sessionId: undefined,
    resumeUrl: undefined,
    sequence: 0,
  };
  #saved = 0;
  #replaying = false;
  /** Messages received but not handed on yet: their sequence, and when they came. */
  readonly #inFlight = new Map<string, { sequence: number; at: number }>();

  constructor(lease: IngressLease, inbound: ReplayFirstInbound) {
    this.#lease = lease;
    this.#inbound = inbound;
  }

  observe(packet: RawGatewayPacket): void {
    // A replayed dispatch carries the previous session's sequence, not this one's.
    if (this.#replaying) return;
    if (packet.t === "READY") {
      const ready = packet.d as { session_id?: string; resume_gateway_url?: string };
      this.#session = { sessionId: ready.session_id, resumeUrl: ready.resume_gateway_url, sequence: 0 };
      this.#inFlight.clear();
    }
    if (typeof packet.s === "number") {
      this.#session.sequence = packet.s;
      const id = packet.t === "MESSAGE_CREATE" ? (packet.d as { id?: unknown } | undefined)?.id : undefined;
      if (typeof id === "string") this.#inFlight.set(id, { sequence: packet.s, at: Date.now() });
    }
    if (Date.now() - this.#saved >= SHARD_SAVE_MS) this.save();
  }

  /** The message's delivery to the gateway settled: its sequence no longer holds the saved one back. */
  handedOn(messageId: string): void {
    this.#inFlight.delete(messageId);
  }

  save(): void {
    if (this.#session.sessionId === undefined || this.#inbound.holding) return;
    this.#saved = Date.now();
    const state: ShardSession = {
      sessionId: this.#session.sessionId,
      resumeUrl: this.#session.resumeUrl ?? "",
      sequence: this.#savableSequence(),
    };
    void this.#lease.save({ ...state });
  }

  /** The last sequence below every message still being handed on (replayed again after a takeover: stored once). */
  #savableSequence(): number {
    let savable = this.#session.sequence;
    const now = Date.now();
    for (const [id, message] of this.#inFlight) {
      if (now - message.at > HANDED_ON_WITHIN_MS) this.#inFlight.delete(id);
      else savable = Math.min(savable, message.sequence - 1);
    }
    return savable;
  }

  /** Runs `replay`, which feeds the previous holder's dispatches through this socket's listeners, uncounted. */
  whileReplaying(replay: () => void): void {
    this.#replaying = true;
    try {
      replay();
    } finally {
      this.#replaying = false;
    }
  }
}
