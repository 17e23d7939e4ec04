import type { IngressLease } from "@chorus/gateway";
import type { ReplayFirstInbound } from "./replay-first-inbound.js";
import type { ShardSession } from "./shard-session-replay.js";

/** How often a shard's sequence is saved with its lease at most. */
const SHARD_SAVE_MS = 1000;

/** A raw gateway packet as discord.js's Raw event gives it. */
export interface RawGatewayPacket {
  t?: string | null;
  s?: number | null;
  d?: unknown;
}

/**
 * Keeps a shard's session id and sequence saved with its lease (at most every second), for whoever holds the shard
 * next; not while live messages are held back (a holder dying then would leave them behind the saved sequence).
 * Contract: `observe` every raw packet of the shard's own socket; dispatches replayed inside `whileReplaying` are not
 * counted; `save` is a no-op before READY or while `inbound` holds.
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
    }
    if (typeof packet.s === "number") this.#session.sequence = packet.s;
    if (Date.now() - this.#saved >= SHARD_SAVE_MS) this.save();
  }

  save(): void {
    if (this.#session.sessionId === undefined || this.#inbound.holding) return;
    this.#saved = Date.now();
    const state: ShardSession = {
      sessionId: this.#session.sessionId,
      resumeUrl: this.#session.resumeUrl ?? "",
      sequence: this.#session.sequence,
    };
    void this.#lease.save({ ...state });
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
