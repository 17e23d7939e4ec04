import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import type { CallLog } from "../shared/call-log.js";
import type { Delivery } from "../shared/delivery.js";
import type { SlackBotAccount } from "./slack-types.js";
import { newTicket } from "./web-api-methods.js";

/** Envelope types the fake sends over a Socket Mode link. */
export type EnvelopeType = "events_api" | "slash_commands" | "interactive";

/**
 * How long Slack waits for the ack of an `interactive` envelope (a button press) before it gives up and shows the
 * user an error; it does not send the press again.
 */
export const INTERACTION_ACK_MS = 3_000;

/** How many times Slack sends an unacked `events_api` envelope again before it gives up on it. */
export const EVENT_RETRIES = 3;

/** Retry bookkeeping of one envelope. */
export interface EnvelopeRetry {
  readonly attempt: number;
  readonly reason: string;
}

interface PendingEnvelope {
  readonly id: string;
  readonly account: SlackBotAccount;
  readonly type: EnvelopeType;
  readonly payload: unknown;
  retry: EnvelopeRetry;
  socket: WebSocket | undefined;
  /** Interactive envelopes: the timer that gives up on the ack; events (with an ack timeout): the timer that retries. */
  deadline?: NodeJS.Timeout | undefined;
  readonly settle: (delivery: Delivery<unknown>) => void;
}

/**
 * Socket Mode links: tickets from `apps.connections.open`, `hello`, envelopes with ack
 * tracking, WS pings (a link that misses a pong is cut), `disconnect` messages, and redelivery of envelopes left
 * unacked when a link dies. An app may hold several links at once (Slack allows 10, e.g. one per instance of a
 * clustered app): envelopes are spread over them round-robin, and with `eventAckTimeoutMs` an `events_api` envelope
 * left unacked that long is sent again (`retry_attempt` + 1, reason `timeout`) on another link, at most
 * EVENT_RETRIES times, as Slack does.
 * Contract: every envelope settles once, when acked (`ok: true`), when an interactive one is left unacked for
 * INTERACTION_ACK_MS, when an event's retries are used up, or when the fake closes.
 */
export class SocketLinks {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #tickets = new Map<string, SlackBotAccount>();
  readonly #links = new Map<string, WebSocket[]>();
  readonly #queued = new Map<string, PendingEnvelope[]>();
  readonly #pending = new Map<string, PendingEnvelope>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #linkWaiters = new Set<() => void>();
  /** Per app: how many envelopes were sent, to pick the next link round-robin. */
  readonly #turns = new Map<string, number>();
  #acksToLose = 0;
  /** Each link's number (1, 2, … in the order they opened), recorded with its acks. */
  readonly #linkNumbers = new WeakMap<WebSocket, number>();
  #linksOpened = 0;

  constructor(
    readonly log: CallLog,
    readonly pingIntervalMs: number,
    /** Resend an `events_api` envelope unacked for this long on another link (0: wait for the ack or the link's end). */
    readonly eventAckTimeoutMs = 0,
  ) {}

  /** The app's open links that got `hello`. */
  linkCount(account: SlackBotAccount): number {
    return this.#links.get(account.appId)?.length ?? 0;
  }

  /** Drops the next `count` acks the fake receives, as if lost on the way: those envelopes stay unacked. */
  loseAcks(count: number): void {
    this.#acksToLose += count;
  }

  issueTicket(account: SlackBotAccount): string {
    const ticket = newTicket();
    this.#tickets.set(ticket, account);
    return ticket;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const ticket = new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("ticket") ?? "";
    const account = this.#tickets.get(ticket);
    if (!account) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
      return;
    }
    this.#tickets.delete(ticket);
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onLink(ws, account));
  }

  /** Sends an envelope now, or queues it until the app has a link. */
  send(
    account: SlackBotAccount,
    type: EnvelopeType,
    payload: unknown,
    retry: EnvelopeRetry,
  ): Promise<Delivery<unknown>> {
    return new Promise((settle) => {
      const envelope: PendingEnvelope = { id: randomUUID(), account, type, payload, retry, socket: undefined, settle };
      const link = this.#nextLink(account);
      if (link) this.#transmit(envelope, link);
      else this.#queue(envelope);
    });
  }

  /** Resolves once the app has `count` (default 1) open links that got `hello`. */
  waitForLink(account: SlackBotAccount, timeoutMs: number, count = 1): Promise<void> {
    if (this.linkCount(account) >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.linkCount(account) < count) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`app ${account.appId} opened no ${count} Socket Mode link(s) within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#linkWaiters.delete(check);
      };
      this.#linkWaiters.add(check);
    });
  }

  /** Sends `{ type: "disconnect", reason }`; the client reconnects through `apps.connections.open`. */
  disconnect(account: SlackBotAccount, reason: string): number {
    const links = this.#links.get(account.appId) ?? [];
    for (const link of links) link.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake" } }));
    return links.length;
  }

  /** Cuts the app's links without a close frame. */
  drop(account: SlackBotAccount): number {
    const links = [...(this.#links.get(account.appId) ?? [])];
    for (const link of links) link.terminate();
    return links.length;
  }

  /** Closes every link with a close handshake (bounded by `graceMs`), then settles what is left. */
  async close(graceMs = 200): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
    this.#linkWaiters.clear();
    const open = [...this.#wss.clients];
    await Promise.all(open.map((link) => closeGracefully(link, graceMs)));
    this.#links.clear();
    const unsettled = [...this.#pending.values(), ...[...this.#queued.values()].flat()];
    this.#pending.clear();
    this.#queued.clear();
    for (const envelope of unsettled) {
      clearTimeout(envelope.deadline);
      envelope.settle({ ok: false, item: envelope.payload, reason: "fake closed before the envelope was acked" });
    }
    this.#wss.close();
  }

  #onLink(ws: WebSocket, account: SlackBotAccount): void {
    const links = this.#links.get(account.appId) ?? [];
    links.push(ws);
    this.#links.set(account.appId, links);
    let timer: NodeJS.Timeout | undefined;
    if (this.pingIntervalMs > 0) {
      // As Slack does, a link that did not answer the last ping is dead: it is cut, and what it never acked goes to
      // the next link (below), instead of waiting on a connection that died silently.
      let answered = true;
      ws.on("pong", () => {
        answered = true;
      });
      timer = setInterval(() => {
        if (!answered) {
          ws.terminate();
          return;
        }
        answered = false;
        ws.ping();
      }, this.pingIntervalMs);
      this.#timers.add(timer);
    }
    this.#linkNumbers.set(ws, ++this.#linksOpened);
    ws.on("message", (data: RawData) => this.#onFrame(data, ws));
    ws.on("error", () => ws.terminate());
    ws.on("close", () => {
      if (timer) {
        clearInterval(timer);
        this.#timers.delete(timer);
      }
      const remaining = (this.#links.get(account.appId) ?? []).filter((link) => link !== ws);
      this.#links.set(account.appId, remaining);
      // Slack redelivers what a dead link never acked.
      for (const envelope of this.#pending.values()) {
        if (envelope.socket !== ws) continue;
        this.#pending.delete(envelope.id);
        clearTimeout(envelope.type === "events_api" ? envelope.deadline : undefined);
        envelope.retry = { attempt: envelope.retry.attempt + 1, reason: "timeout" };
        envelope.socket = undefined;
        const next = this.#nextLink(account);
        if (next) this.#transmit(envelope, next);
        else this.#queue(envelope);
      }
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: links.length,
        debug_info: { host: "fake-slack", approximate_connection_time: 18060 },
        connection_info: { app_id: account.appId },
      }),
    );
    const queued = this.#queued.get(account.appId) ?? [];
    this.#queued.delete(account.appId);
    for (const envelope of queued) this.#transmit(envelope, ws);
    for (const waiter of this.#linkWaiters) waiter();
  }

  /** The app's links take turns (round-robin); `avoid` is skipped when there is another. */
  #nextLink(account: SlackBotAccount, avoid?: WebSocket): WebSocket | undefined {
    const links = (this.#links.get(account.appId) ?? []).filter((link) => link !== avoid);
    const candidates = links.length > 0 ? links : (this.#links.get(account.appId) ?? []);
    if (candidates.length === 0) return undefined;
    const turn = this.#turns.get(account.appId) ?? 0;
    this.#turns.set(account.appId, turn + 1);
    return candidates[turn % candidates.length];
  }

  /** An event nobody acked in time: sent again on another link, until EVENT_RETRIES are used up. */
  #retryUnacked(envelope: PendingEnvelope): void {
    if (this.#pending.get(envelope.id) !== envelope) return;
    this.#pending.delete(envelope.id);
    envelope.deadline = undefined;
    if (envelope.retry.attempt >= EVENT_RETRIES) {
      envelope.settle({ ok: false, item: envelope.payload, reason: `not acked after ${EVENT_RETRIES} retries` });
      return;
    }
    const failed = envelope.socket;
    envelope.retry = { attempt: envelope.retry.attempt + 1, reason: "timeout" };
    envelope.socket = undefined;
    const next = this.#nextLink(envelope.account, failed);
    if (next) this.#transmit(envelope, next);
    else this.#queue(envelope);
  }

  #queue(envelope: PendingEnvelope): void {
    const list = this.#queued.get(envelope.account.appId) ?? [];
    list.push(envelope);
    this.#queued.set(envelope.account.appId, list);
  }

  #transmit(envelope: PendingEnvelope, ws: WebSocket): void {
    envelope.socket = ws;
    this.#pending.set(envelope.id, envelope);
    if (envelope.type === "interactive" && envelope.deadline === undefined) {
      envelope.deadline = setTimeout(() => this.#giveUp(envelope), INTERACTION_ACK_MS);
    }
    if (envelope.type === "events_api" && this.eventAckTimeoutMs > 0) {
      envelope.deadline = setTimeout(() => this.#retryUnacked(envelope), this.eventAckTimeoutMs);
    }
    ws.send(
      JSON.stringify({
        envelope_id: envelope.id,
        type: envelope.type,
        accepts_response_payload: envelope.type !== "events_api",
        retry_attempt: envelope.retry.attempt,
        retry_reason: envelope.retry.reason,
        payload: envelope.payload,
      }),
    );
  }

  /** An interaction nobody acked in time: Slack drops it (no redelivery). */
  #giveUp(envelope: PendingEnvelope): void {
    this.#pending.delete(envelope.id);
    const queued = this.#queued.get(envelope.account.appId);
    if (queued?.includes(envelope))
      this.#queued.set(
        envelope.account.appId,
        queued.filter((e) => e !== envelope),
      );
    envelope.settle({ ok: false, item: envelope.payload, reason: `not acked within ${INTERACTION_ACK_MS} ms` });
  }

  #onFrame(data: RawData, ws: WebSocket): void {
    let frame: { envelope_id?: string; payload?: unknown };
    try {
      frame = JSON.parse(data.toString()) as { envelope_id?: string; payload?: unknown };
    } catch {
      return;
    }
    const envelope = frame.envelope_id === undefined ? undefined : this.#pending.get(frame.envelope_id);
    if (!envelope) return;
    const lost = this.#acksToLose > 0;
    if (lost) this.#acksToLose -= 1;
    else {
      this.#pending.delete(envelope.id);
      clearTimeout(envelope.deadline);
    }
    this.log.record({
      method: lost ? "lost-ack" : "ack",
      httpMethod: "WS",
      path: "/link/",
      params: { envelope_id: envelope.id, type: envelope.type, link: String(this.#linkNumbers.get(ws)) },
      body: frame.payload,
      botId: envelope.account.userId,
      status: 101,
      at: Date.now(),
    });
    if (!lost) envelope.settle({ ok: true, item: envelope.payload });
  }
}

/** Completes (or starts) the close handshake so the client sees a clean close, then terminates. */
function closeGracefully(link: WebSocket, graceMs: number): Promise<void> {
  if (link.readyState === link.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      link.terminate();
      resolve();
    }, graceMs);
    link.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    if (link.readyState === link.OPEN) link.close(1001, "fake server closing");
  });
}
