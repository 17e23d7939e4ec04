import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  type Channel,
  type ChannelCapabilities,
  ChannelError,
  type GatewayEvent,
  type InboundMessage,
  type InboundSink,
  type OutboundMessage,
  type SendTarget,
  type SentMessage,
} from "@chorus/gateway";
import { type WebSocket, WebSocketServer } from "ws";
import { browserIdFromCookie, guestName, newBrowserId } from "./browser-identity.js";
import { isAllowedUpgrade, isLoopbackRequest } from "./local-request.js";
import { WebchatActivityMapper } from "./webchat-activity.js";
import { loadWebchatAssets } from "./webchat-assets.js";
import { WebchatHistory } from "./webchat-history.js";
import { type ReadinessReport, webchatHttpHandler } from "./webchat-http.js";
import {
  type ClientFrame,
  clientFrameSchema,
  GROUP_CHAT_ID,
  type ServerFrame,
  type WebchatMessage,
  type WebchatRoom,
} from "./webchat-protocol.js";

/** Options of a WebChat account. */
export interface WebchatChannelOptions {
  readonly accountId: string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 8787; 0 picks a free port (tests). */
  readonly port?: number;
  /** Browsers connecting over loopback are admins (owner tier). Default true. */
  readonly localAdmin?: boolean;
  /** Told when a browser is recognised as an admin, so the gateway's policy can treat its sender id as one. */
  readonly onAdmin?: (senderId: string) => void;
  /** Answers GET /readyz; default ready once listening. */
  readonly readiness?: () => ReadinessReport;
  readonly now?: () => number;
}

/** WebChat renders Markdown itself, so it takes long messages and edits freely. */
export const WEBCHAT_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 16_000,
  edit: true,
  delete: true,
  typing: true,
  threads: false,
  reactions: false,
  buttons: false,
  markup: "markdown",
  editRate: { edits: 20, perMs: 1000 },
};

interface Client {
  readonly socket: WebSocket;
  readonly browserId: string;
  readonly admin: boolean;
}

/**
 * The local web chat as a Channel: serves the page, /healthz and /readyz on one HTTP server, and talks to each
 * browser over a WebSocket. Each browser (cookie) has its own DM session; every browser shares the group room.
 * Contract: binds `host:port` on start (rejects if it cannot); `send`/`edit`/`delete` reach every open tab of the
 * chat and are kept for pages that load later; an unknown chat or message is a ChannelError "not-found".
 */
export class WebchatChannel implements Channel {
  readonly id = "webchat";
  readonly accountId: string;
  readonly capabilities = WEBCHAT_CAPABILITIES;

  readonly #options: WebchatChannelOptions;
  readonly #now: () => number;
  readonly #history = new WebchatHistory();
  readonly #clients = new Set<Client>();
  readonly #activity: WebchatActivityMapper;
  readonly #openSockets = new Set<Socket>();
  #server: Server | undefined;
  #wss: WebSocketServer | undefined;
  #sink: InboundSink | undefined;
  #accepting = false;
  #nextId = 1;

  constructor(options: WebchatChannelOptions) {
    this.accountId = options.accountId;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#activity = new WebchatActivityMapper(options.accountId);
  }

  /** The page's URL once started, e.g. http://127.0.0.1:8787/. */
  get url(): string | undefined {
    const address = this.#server?.address() as AddressInfo | null | undefined;
    if (!address) return undefined;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}/`;
  }

  async start(sink: InboundSink): Promise<void> {
    if (this.#server !== undefined) throw new ChannelError("unknown", "webchat channel is already started");
    const assets = await loadWebchatAssets();
    this.#sink = sink;
    const server = createServer(
      webchatHttpHandler({
        assets,
        readiness: () => {
          const report = this.#options.readiness?.() ?? { ready: true };
          return { ...report, ready: report.ready && this.#accepting };
        },
      }),
    );
    const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    server.on("connection", (socket) => {
      this.#openSockets.add(socket);
      socket.once("close", () => this.#openSockets.delete(socket));
    });
    server.on("upgrade", (request, socket, head) => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      if (path !== "/ws" || !this.#accepting || !isAllowedUpgrade(request, this.#loopbackOnly())) {
        socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => this.#onSocket(ws, request));
    });
    this.#server = server;
    this.#wss = wss;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#options.port ?? 8787, this.#options.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      this.#server = undefined;
      this.#wss = undefined;
      const where = `${this.#options.host ?? "127.0.0.1"}:${this.#options.port ?? 8787}`;
      throw new ChannelError(
        "network",
        error.code === "EADDRINUSE"
          ? `webchat: ${where} is already in use; set channels.webchat[].port (or CHORUS_WEBCHAT_PORT) to another port`
          : `webchat: cannot listen on ${where}: ${error.message}`,
      );
    });
    this.#accepting = true;
  }

  /** Stops taking messages from browsers (graceful shutdown); replies still reach open pages. */
  stopIntake(): void {
    this.#accepting = false;
  }

  async stop(): Promise<void> {
    this.#accepting = false;
    for (const client of this.#clients) client.socket.close(1001, "server shutting down");
    this.#clients.clear();
    const server = this.#server;
    this.#server = undefined;
    this.#wss?.close();
    this.#wss = undefined;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of this.#openSockets) socket.destroy();
    });
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    const { room, chatId } = this.#placeOf(target);
    const message: WebchatMessage = {
      id: `m${this.#nextId++}`,
      room,
      role: "bot",
      text: outbound.text,
      senderName: "Chorus",
      at: this.#now(),
    };
    this.#history.add(chatId, message);
    this.#broadcast(room, chatId, { type: "message", message });
    return { messageId: message.id, chatId: target.chatId, sentAt: message.at };
  }

  async edit(sent: SentMessage, outbound: OutboundMessage): Promise<void> {
    const room: WebchatRoom = sent.chatId === GROUP_CHAT_ID ? "group" : "dm";
    if (!this.#history.edit(sent.chatId, sent.messageId, outbound.text)) {
      throw new ChannelError("not-found", `webchat: no message ${sent.messageId} in this chat`);
    }
    this.#broadcast(room, sent.chatId, { type: "edit", room, id: sent.messageId, text: outbound.text });
  }

  async delete(sent: SentMessage): Promise<void> {
    const room: WebchatRoom = sent.chatId === GROUP_CHAT_ID ? "group" : "dm";
    if (!this.#history.remove(sent.chatId, sent.messageId)) {
      throw new ChannelError("not-found", `webchat: no message ${sent.messageId} in this chat`);
    }
    this.#broadcast(room, sent.chatId, { type: "delete", room, id: sent.messageId });
  }

  async typing(target: SendTarget): Promise<void> {
    const { room, chatId } = this.#placeOf(target);
    this.#broadcast(room, chatId, { type: "typing", room });
  }

  /**
   * Shows a gateway event (tool call, sub-agent, run start/end) on the pages of its chat.
   * Contract: events of other channels and accounts are ignored.
   */
  showActivity(event: GatewayEvent): void {
    const routed = this.#activity.map(event);
    if (routed === undefined) return;
    this.#broadcast(routed.room, routed.chatId, { type: "activity", room: routed.room, activity: routed.activity });
  }

  #placeOf(target: SendTarget): { room: WebchatRoom; chatId: string } {
    if (target.chatType === "group") {
      if (target.chatId !== GROUP_CHAT_ID) throw new ChannelError("not-found", `webchat: no group "${target.chatId}"`);
      return { room: "group", chatId: GROUP_CHAT_ID };
    }
    return { room: "dm", chatId: target.chatId };
  }

  #broadcast(room: WebchatRoom, chatId: string, frame: ServerFrame): void {
    const data = JSON.stringify(frame);
    for (const client of this.#clients) {
      if (room === "group" || client.browserId === chatId) client.socket.send(data);
    }
  }

  #loopbackOnly(): boolean {
    const host = this.#options.host ?? "127.0.0.1";
    return host === "127.0.0.1" || host === "localhost" || host === "::1";
  }

  #onSocket(socket: WebSocket, request: IncomingMessage): void {
    const browserId = browserIdFromCookie(request.headers.cookie) ?? newBrowserId();
    const admin = (this.#options.localAdmin ?? true) && isLoopbackRequest(request);
    if (admin) this.#options.onAdmin?.(browserId);
    const client: Client = { socket, browserId, admin };
    this.#clients.add(client);
    socket.on("close", () => this.#clients.delete(client));
    socket.on("error", () => this.#clients.delete(client));
    const history = [...this.#history.list(browserId), ...this.#history.list(GROUP_CHAT_ID)].sort(
      (a, b) => a.at - b.at,
    );
    socket.send(
      JSON.stringify({ type: "hello", browserId, name: guestName(browserId), admin, history } satisfies ServerFrame),
    );
    socket.on("message", (data) => {
      let frame: ClientFrame;
      try {
        frame = clientFrameSchema.parse(JSON.parse(String(data)));
      } catch {
        socket.send(JSON.stringify({ type: "error", message: "unreadable frame" } satisfies ServerFrame));
        return;
      }
      void this.#onFrame(client, frame);
    });
  }

  async #onFrame(client: Client, frame: ClientFrame): Promise<void> {
    if (!this.#accepting || this.#sink === undefined) {
      client.socket.send(JSON.stringify({ type: "error", message: "the bot is shutting down" } satisfies ServerFrame));
      return;
    }
    const chatId = frame.room === "dm" ? client.browserId : GROUP_CHAT_ID;
    const at = this.#now();
    const id = `u${this.#nextId++}`;
    const name = guestName(client.browserId);
    const shown: WebchatMessage = {
      id,
      room: frame.room,
      role: "user",
      text: frame.text,
      senderName: name,
      senderId: client.browserId,
      at,
    };
    this.#history.add(chatId, shown);
    this.#broadcast(frame.room, chatId, { type: "message", message: shown });
    const inbound: InboundMessage = {
      channel: this.id,
      accountId: this.accountId,
      chatType: frame.room,
      chatId,
      messageId: id,
      eventId: `${client.browserId}:${id}:${at}`,
      sender: { id: client.browserId, name, isBot: false },
      text: frame.text,
      // Everyone in the shared room is talking to the bot; there is nobody else to address.
      mentionsBot: true,
      replyToBot: false,
      attachments: [],
      receivedAt: at,
    };
    try {
      await this.#sink(inbound);
    } catch (error) {
      client.socket.send(
        JSON.stringify({
          type: "error",
          message: `could not take the message: ${String(error)}`,
        } satisfies ServerFrame),
      );
    }
  }
}
