import type { WebSocket } from "ws";
import type { DiscordBotAccount } from "./discord-types.js";

interface SentFrame {
  readonly seq: number;
  readonly frame: string;
}

/**
 * One gateway session: its sequence numbers and the recent dispatches kept for RESUME.
 * Contract: `dispatch` numbers events 1, 2, 3…; events reach the socket when one is attached and
 * are otherwise kept; `framesAfter(seq)` finds the replay start without scanning.
 */
export class GatewaySession {
  seq = 0;
  socket: WebSocket | undefined;
  /** Already-delivered events to replay again on the next RESUME (fault injection). */
  replayDeliveredOnResume = 0;
  /** The sequence the client last sent in a heartbeat: every event up to it has been read by the client. */
  heartbeatSeq = 0;
  readonly #heartbeatWaiters = new Set<() => void>();
  #frames: SentFrame[] = [];
  #firstSeq = 1;

  constructor(
    readonly id: string,
    readonly bot: DiscordBotAccount,
    readonly intents: number,
    readonly capacity: number,
    /** `[shard id, shard count]` from IDENTIFY (`[0, 1]` when it named none). */
    readonly shard: readonly [number, number] = [0, 1],
  ) {}

  /** Sends (or keeps for replay) one dispatch event. */
  dispatch(type: string, data: unknown): void {
    this.seq += 1;
    const frame = JSON.stringify({ op: 0, t: type, s: this.seq, d: data });
    this.#frames.push({ seq: this.seq, frame });
    if (this.#frames.length > this.capacity * 2) {
      this.#frames = this.#frames.slice(this.#frames.length - this.capacity);
      this.#firstSeq = (this.#frames[0] as SentFrame).seq;
    }
    if (this.socket?.readyState === 1) this.socket.send(frame);
  }

  /** Takes a heartbeat's sequence (op 1 `d`). */
  heartbeat(seq: unknown): void {
    if (typeof seq === "number" && seq > this.heartbeatSeq) this.heartbeatSeq = seq;
    for (const waiter of this.#heartbeatWaiters) waiter();
  }

  /** Resolves once the client has heartbeated with a sequence ≥ `seq` (it has read every event up to it). */
  waitForHeartbeat(seq: number, timeoutMs: number): Promise<void> {
    if (this.heartbeatSeq >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (this.heartbeatSeq < seq) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no heartbeat acknowledging sequence ${seq} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.#heartbeatWaiters.delete(check);
      };
      this.#heartbeatWaiters.add(check);
    });
  }

  /** Frames with a sequence above `seq`, or `undefined` when the buffer no longer reaches back that far. */
  framesAfter(seq: number): string[] | undefined {
    if (seq + 1 < this.#firstSeq && seq < this.seq) return undefined;
    const start = Math.max(0, seq + 1 - this.#firstSeq);
    return this.#frames.slice(start).map((f) => f.frame);
  }
}
