import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import type { CallLog } from "../shared/call-log.js";
import { urlAsAddressed } from "../shared/url-as-addressed.js";
import type { DiscordBotAccount } from "./discord-types.js";
import { type DiscordWorld, sessionSlot, shardOf } from "./discord-world.js";
import { GatewaySession } from "./gateway-session.js";

/** Gateway opcodes used by the fake. */
const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Settings of the fake gateway. */
export interface GatewaySettings {
  readonly heartbeatIntervalMs: number;
  readonly replayBufferSize: number;
  /** `ws://127.0.0.1:PORT/gateway` */
  readonly url: string;
}

/**
 * The Discord gateway over WebSocket: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats,
 * RESUME with replay of events after the client's last sequence, op 7 and dropped connections.
 * Contract: `handleUpgrade` takes every upgrade on `/gateway`; `close` terminates all sockets.
 */
export class DiscordGateway {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #sockets = new Set<WebSocket>();
  readonly #readyWaiters = new Set<() => void>();
  /** RESUMEs to hold between their replay and RESUMED, by session slot: the hold's release. */
  readonly #resumeHolds = new Map<string, { reached: () => void; released: Promise<void> }>();

  constructor(
    readonly world: DiscordWorld,
    readonly log: CallLog,
    readonly settings: GatewaySettings,
  ) {}

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A client that came through a gate resumes through it too.
    const url = urlAsAddressed(req, this.settings.url);
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onConnection(ws, url));
  }

  /** The shard ids of every open socket of `bot` with a session, sorted (a shard connected twice is there twice). */
  connectedShards(bot: DiscordBotAccount): number[] {
    const shards: number[] = [];
    for (const session of this.world.sessions.values()) {
      if (session.bot.user.id === bot.user.id && session.socket?.readyState === 1) shards.push(session.shard[0]);
    }
    return shards.sort((a, b) => a - b);
  }

  /** Resolves once `bot` has a session with an open socket on `shard`. */
  waitForSession(bot: DiscordBotAccount, timeoutMs: number, shard = 0): Promise<GatewaySession> {
    const check = () => {
      const session = this.world.currentSession.get(sessionSlot(bot.user.id, shard));
      return session?.socket?.readyState === 1 ? session : undefined;
    };
    const ready = check();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const onChange = () => {
        const session = check();
        if (!session) return;
        cleanup();
        resolve(session);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`bot ${bot.user.username} did not connect to the fake gateway within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#readyWaiters.delete(onChange);
      };
      this.#readyWaiters.add(onChange);
    });
  }

  /**
   * Cuts a bot's connection without a close frame; the client should RESUME. When not
   * `resumable`, the session is forgotten: RESUME gets op 9 and the client IDENTIFYs again.
   */
  drop(bot: DiscordBotAccount, replayDelivered: number, resumable: boolean, shard = 0): boolean {
    const session = this.world.currentSession.get(sessionSlot(bot.user.id, shard));
    const socket = session?.socket;
    if (!session || !socket) return false;
    session.replayDeliveredOnResume = replayDelivered;
    if (!resumable) {
      this.world.sessions.delete(session.id);
      this.world.currentSession.delete(sessionSlot(bot.user.id, shard));
    }
    session.socket = undefined;
    socket.terminate();
    return true;
  }

  /**
   * The next RESUME of `bot`'s session on `shard` sends its replay and then waits for `release` before RESUMED (live
   * events of the shard's current session may come meanwhile, as on Discord, where a RESUME's replay takes a while).
   */
  holdResumed(bot: DiscordBotAccount, shard = 0): { readonly replayed: Promise<void>; release(): void } {
    let reached = (): void => {};
    const replayed = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#resumeHolds.set(sessionSlot(bot.user.id, shard), { reached, released });
    return { replayed, release };
  }

  /** Resolves once the client on `bot`'s current session of `shard` has read (heartbeated past) every event so far. */
  async waitForHeartbeat(bot: DiscordBotAccount, timeoutMs: number, shard = 0): Promise<void> {
    const session = this.world.currentSession.get(sessionSlot(bot.user.id, shard));
    if (session === undefined) throw new Error(`bot ${bot.user.username} has no session on shard ${shard}`);
    await session.waitForHeartbeat(session.seq, timeoutMs);
  }

  /** Sends op 7 RECONNECT; the client closes and resumes. */
  requestReconnect(bot: DiscordBotAccount, shard = 0): boolean {
    const socket = this.world.currentSession.get(sessionSlot(bot.user.id, shard))?.socket;
    if (!socket) return false;
    socket.send(JSON.stringify({ op: Op.Reconnect, d: null }));
    return true;
  }

  #forget(session: GatewaySession): void {
    this.world.sessions.delete(session.id);
    const slot = sessionSlot(session.bot.user.id, session.shard[0]);
    if (this.world.currentSession.get(slot) === session) this.world.currentSession.delete(slot);
  }

  close(): void {
    for (const socket of this.#sockets) socket.terminate();
    this.#sockets.clear();
    this.#readyWaiters.clear();
    this.#wss.close();
  }

  #onConnection(ws: WebSocket, url: string): void {
    this.#sockets.add(ws);
    let session: GatewaySession | undefined;
    ws.on("close", (code: number) => {
      this.#sockets.delete(ws);
      if (session?.socket !== ws) return;
      session.socket = undefined;
      // A client closing with 1000 or 1001 ends its session, as on Discord: RESUME then gets op 9.
      if (code === 1000 || code === 1001) this.#forget(session);
    });
    ws.on("error", () => ws.terminate());
    ws.on("message", (data: RawData) => {
      let payload: { op?: number; d?: unknown };
      try {
        payload = JSON.parse(data.toString()) as { op?: number; d?: unknown };
      } catch {
        ws.close(4002, "Error while decoding payload.");
        return;
      }
      switch (payload.op) {
        case Op.Heartbeat:
          if (session?.socket === ws) session.heartbeat(payload.d);
          ws.send(JSON.stringify({ op: Op.HeartbeatAck }));
          return;
        case Op.Identify:
          session = this.#identify(ws, payload.d as Record<string, unknown>, url);
          return;
        case Op.Resume:
          session = this.#resume(ws, payload.d as Record<string, unknown>);
          return;
        case Op.PresenceUpdate:
        case Op.RequestGuildMembers:
          this.#record(payload.op === Op.PresenceUpdate ? "gateway.presenceUpdate" : "gateway.requestGuildMembers", {
            body: payload.d,
            botId: session?.bot.user.id,
          });
          return;
        default:
          ws.close(4001, "Unknown opcode.");
      }
    });
    ws.send(JSON.stringify({ op: Op.Hello, d: { heartbeat_interval: this.settings.heartbeatIntervalMs } }));
  }

  #record(method: string, fields: { body: unknown; botId: string | undefined }): void {
    this.log.record({ method, httpMethod: "WS", path: "/gateway", params: {}, status: 101, at: Date.now(), ...fields });
  }

  #identify(ws: WebSocket, d: Record<string, unknown>, url: string): GatewaySession | undefined {
    const bot = this.world.bots.get(String(d.token ?? ""));
    this.#record("gateway.identify", {
      body: { intents: d.intents, shard: d.shard, properties: d.properties },
      botId: bot?.user.id,
    });
    if (!bot) {
      ws.close(4004, "Authentication failed.");
      return undefined;
    }
    const shard = shardOfIdentify(d.shard);
    if (shard === undefined) {
      ws.close(4010, "Invalid shard.");
      return undefined;
    }
    // Beyond the daily budget Discord resets the bot's token; the fake refuses the IDENTIFY as a bad token.
    if (!this.world.sessionStartLimit(bot).spend()) {
      this.#record("gateway.identifyOverBudget", { body: { shard: d.shard }, botId: bot.user.id });
      ws.close(4004, "Authentication failed.");
      return undefined;
    }
    const session = new GatewaySession(
      randomBytes(16).toString("hex"),
      bot,
      Number(d.intents ?? 0),
      this.settings.replayBufferSize,
      shard,
    );
    session.socket = ws;
    this.world.sessions.set(session.id, session);
    this.world.currentSession.set(sessionSlot(bot.user.id, shard[0]), session);
    const guilds = this.world.guilds.filter((guild) => shardOf(guild.id, shard[1]) === shard[0]);
    session.dispatch("READY", {
      v: 10,
      user: bot.user,
      guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: url,
      shard,
      application: { id: bot.applicationId, flags: 0 },
      private_channels: [],
      relationships: [],
      presences: [],
      geo_ordered_rtc_regions: [],
      guild_join_requests: [],
      user_settings: {},
      _trace: ["fake-discord"],
    });
    for (const guild of guilds) session.dispatch("GUILD_CREATE", this.world.guildCreatePayload(bot, guild));
    for (const waiter of this.#readyWaiters) waiter();
    return session;
  }

  #resume(ws: WebSocket, d: Record<string, unknown>): GatewaySession | undefined {
    const session = this.world.sessions.get(String(d.session_id ?? ""));
    const seq = Number(d.seq ?? 0);
    this.#record("gateway.resume", {
      body: { session_id: d.session_id, seq, shard: session?.shard },
      botId: session?.bot.user.id,
    });
    const valid = session !== undefined && session.bot.token === d.token;
    const frames = valid ? session.framesAfter(Math.max(0, seq - session.replayDeliveredOnResume)) : undefined;
    if (!session || !frames) {
      ws.send(JSON.stringify({ op: Op.InvalidSession, d: false }));
      return undefined;
    }
    session.replayDeliveredOnResume = 0;
    session.socket?.terminate();
    session.socket = ws;
    // A session resumed while a newer one of the shard is connected (another process IDENTIFIED it meanwhile) gets its
    // replay, but the shard's new events keep going to the newer one.
    const slot = sessionSlot(session.bot.user.id, session.shard[0]);
    if (this.world.currentSession.get(slot)?.socket === undefined) this.world.currentSession.set(slot, session);
    for (const frame of frames) ws.send(frame);
    const resumed = (): void => {
      if (ws.readyState !== 1) return;
      ws.send(JSON.stringify({ op: Op.Dispatch, t: "RESUMED", s: null, d: { _trace: ["fake-discord"] } }));
      for (const waiter of this.#readyWaiters) waiter();
    };
    const hold = this.#resumeHolds.get(slot);
    this.#resumeHolds.delete(slot);
    if (hold === undefined) resumed();
    else {
      hold.reached();
      void hold.released.then(resumed);
    }
    return session;
  }
}

/** `[id, count]` from IDENTIFY's `shard` (`[0, 1]` when absent), or undefined when it is not a valid pair. */
function shardOfIdentify(value: unknown): [number, number] | undefined {
  if (value === undefined || value === null) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [id, count] = value.map(Number) as [number, number];
  if (!Number.isInteger(id) || !Number.isInteger(count) || count < 1 || id < 0 || id >= count) return undefined;
  return [id, count];
}
