import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { dirname, join } from "node:path";
import {
  type AttachmentLocation,
  type Channel,
  ChannelError,
  type FetchAttachmentOptions,
  type FetchedAttachment,
  type GatewayEvent,
  type InboundMessage,
  type InboundSink,
  type OutboundFile,
  type OutboundMessage,
  type SendTarget,
  type SentMessage,
} from "@chorus/gateway";
import { type WebSocket, WebSocketServer } from "ws";
import { missingAccessTokenMessage } from "./access-token-required.js";
import { credentialFromCookie, guestName, newCredential, publicIdOf } from "./browser-identity.js";
import { allowedHostNames, isAllowedHost, isLoopbackBind, isLoopbackRequest, isSameOrigin } from "./local-request.js";
import { WebchatAccess } from "./webchat-access.js";
import { WebchatActivityMapper } from "./webchat-activity.js";
import { loadWebchatAssets } from "./webchat-assets.js";
import { type AttachedFiles, UploadNotAttachableError, WebchatAttachments } from "./webchat-attachments.js";
import {
  DEFAULT_MAX_ATTACHMENT_BYTES,
  WEBCHAT_CAPABILITIES,
  type WebchatChannelOptions,
} from "./webchat-channel-options.js";
import { webchatFileRoutes } from "./webchat-file-routes.js";
import { WebchatFileStore } from "./webchat-file-store.js";
import { webchatHttpHandler } from "./webchat-http.js";
import { loadOrCreateWebchatKey } from "./webchat-key.js";
import { mergeHistory, WebchatLiveMessages } from "./webchat-live-messages.js";
import {
  type ClientFrame,
  clientFrameSchema,
  GROUP_CHAT_ID,
  type ServerFrame,
  type WebchatMessage,
  type WebchatRoom,
} from "./webchat-protocol.js";
import { parseRelayedFrame, type RelayedFrame, relayTopic } from "./webchat-relay.js";
import { fileIdOfMessage, sentFileMessage, storeSentFile } from "./webchat-sent-files.js";

export { DEFAULT_MAX_ATTACHMENT_BYTES, WEBCHAT_CAPABILITIES, type WebchatChannelOptions };

/** Uploads never sent in a message are removed at start once this old. */
const UNSENT_UPLOAD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Client {
  readonly socket: WebSocket;
  /** The browser's public id: its DM chat id and sender id. */
  readonly publicId: string;
  /** Decided once, when this connection opened; never from anything the client sends. */
  readonly admin: boolean;
  /** The frames of this connection being taken, in order (attaching files takes a moment). */
  intake: Promise<void>;
}

/**
 * The local web chat as a Channel: serves the page, /healthz and /readyz on one HTTP server, and talks to each
 * browser over a WebSocket. A browser holds a secret credential (cookie); everything shown to others and used as its
 * chat and sender id is a public id the server derives from it. Each browser has its own DM session; every browser
 * shares the group room. A connection is an admin only when `localAdmin` is on and its TCP peer is this machine.
 * With `relay` (a cluster), what one instance shows reaches the browsers connected to every other.
 * Contract: `start` rejects when bound off loopback without `accessToken`, or when it cannot listen (or, with
 * `relay`, cannot listen to the other instances); `send`/`edit`/`delete` reach every open tab of the chat (a DM only
 * its own browser), on every instance with `relay`; an unknown chat or message is a ChannelError "not-found".
 */
export class WebchatChannel implements Channel {
  readonly id = "webchat";
  readonly accountId: string;
  readonly capabilities = WEBCHAT_CAPABILITIES;

  readonly #options: WebchatChannelOptions;
  readonly #now: () => number;
  readonly #live = new WebchatLiveMessages();
  /** The file messages this instance sent, kept apart (and longer) since their files are kept: in later pages. */
  readonly #sentFiles = new WebchatLiveMessages({ perChat: 200, chats: 10_000 });
  readonly #clients = new Set<Client>();
  readonly #activity: WebchatActivityMapper;
  readonly #openSockets = new Set<Socket>();
  readonly #files: WebchatFileStore;
  readonly #attachments: WebchatAttachments;
  #key: Buffer | undefined;
  #server: Server | undefined;
  #wss: WebSocketServer | undefined;
  #sink: InboundSink | undefined;
  #accepting = false;
  #nextId = 1;
  #unsubscribe: (() => void) | undefined;
  /** In every event id, so that a channel restarted by a reload (its counter back at 1) never repeats one. */
  readonly #instance = randomBytes(6).toString("base64url");

  constructor(options: WebchatChannelOptions) {
    this.accountId = options.accountId;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#activity = new WebchatActivityMapper(options.accountId);
    this.#files = new WebchatFileStore(options.filesDir ?? join(dirname(options.keyFile), "webchat", "uploads"));
    this.#attachments = new WebchatAttachments(this.#files);
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
    const bindHost = this.#options.host ?? "127.0.0.1";
    if (!isLoopbackBind(bindHost) && this.#options.accessToken === undefined) {
      throw new ChannelError("forbidden", missingAccessTokenMessage(bindHost));
    }
    const assets = await loadWebchatAssets();
    const own = await loadOrCreateWebchatKey(this.#options.keyFile);
    const key = this.#options.sharedKey === undefined ? own : await this.#options.sharedKey(own);
    this.#key = key;
    const access = new WebchatAccess(key, this.#options.accessToken);
    const hosts = allowedHostNames(bindHost, this.#options.allowedHosts);
    await this.#openFiles();
    this.#sink = sink;
    const server = createServer(
      webchatHttpHandler({
        assets,
        access,
        allowedHosts: hosts,
        ...(this.#options.metrics === undefined ? {} : { metrics: this.#options.metrics }),
        ...(this.#options.metricsToken === undefined ? {} : { metricsToken: this.#options.metricsToken }),
        files: webchatFileRoutes({
          store: this.#files,
          access,
          key,
          maxUploadBytes: this.#maxAttachmentBytes,
          accepting: () => this.#accepting,
          now: this.#now,
          ...(this.#options.onError === undefined ? {} : { onError: this.#options.onError }),
        }),
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
      const allowed =
        path === "/ws" &&
        this.#accepting &&
        isAllowedHost(request, hosts) &&
        isSameOrigin(request) &&
        access.granted(request);
      if (!allowed) {
        socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => this.#onSocket(ws, request));
    });
    this.#server = server;
    this.#wss = wss;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#options.port ?? 8787, bindHost, () => {
        server.off("error", reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      this.#server = undefined;
      this.#wss = undefined;
      const where = `${bindHost}:${this.#options.port ?? 8787}`;
      throw new ChannelError(
        "network",
        error.code === "EADDRINUSE"
          ? `webchat: ${where} is already in use; set channels.webchat[].port (or CHORUS_WEBCHAT_PORT) to another port`
          : `webchat: cannot listen on ${where}: ${error.message}`,
      );
    });
    const relay = this.#options.relay;
    if (relay !== undefined) {
      try {
        this.#unsubscribe = await relay.subscribe(relayTopic(this.accountId), (payload) => this.#relayed(payload));
      } catch (error) {
        await this.stop();
        throw new ChannelError("network", `webchat: cannot listen to the other instances: ${String(error)}`);
      }
    }
    this.#accepting = true;
  }

  /** Stops taking messages from browsers (graceful shutdown); replies still reach open pages. */
  stopIntake(): void {
    this.#accepting = false;
  }

  async stop(): Promise<void> {
    this.#accepting = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
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
      id: this.#newId("m"),
      room,
      role: "bot",
      text: outbound.text,
      senderName: "Chorus",
      at: this.#now(),
    };
    this.#live.add(chatId, message);
    this.#broadcast(room, chatId, { type: "message", message });
    return { messageId: message.id, chatId: target.chatId, sentAt: message.at };
  }

  async edit(sent: SentMessage, outbound: OutboundMessage): Promise<void> {
    const room: WebchatRoom = sent.chatId === GROUP_CHAT_ID ? "group" : "dm";
    const edited =
      this.#live.edit(sent.chatId, sent.messageId, outbound.text) ||
      this.#sentFiles.edit(sent.chatId, sent.messageId, outbound.text);
    if (!edited) {
      throw new ChannelError("not-found", `webchat: no message ${sent.messageId} in this chat`);
    }
    this.#broadcast(room, sent.chatId, { type: "edit", room, id: sent.messageId, text: outbound.text });
  }

  async delete(sent: SentMessage): Promise<void> {
    const room: WebchatRoom = sent.chatId === GROUP_CHAT_ID ? "group" : "dm";
    const removed =
      this.#live.remove(sent.chatId, sent.messageId) || this.#sentFiles.remove(sent.chatId, sent.messageId);
    if (!removed) {
      throw new ChannelError("not-found", `webchat: no message ${sent.messageId} in this chat`);
    }
    const fileId = fileIdOfMessage(sent.messageId);
    if (fileId !== undefined) await this.#files.remove(fileId);
    this.#broadcast(room, sent.chatId, { type: "delete", room, id: sent.messageId });
  }

  /**
   * Keeps the file (under `filesDir`, by an unguessable id) and shows it in the chat: its caption, a download link
   * served only to that chat's browsers, and an inline preview for an image. Survives a page reload and a restart.
   */
  async sendFile(target: SendTarget, file: OutboundFile): Promise<SentMessage> {
    const { room, chatId } = this.#placeOf(target);
    const max = WEBCHAT_CAPABILITIES.maxUploadBytes ?? 0;
    if (file.bytes.byteLength > max) {
      throw new ChannelError("too-long", `webchat: ${file.name} is larger than ${max} bytes`);
    }
    const message = await storeSentFile(this.#files, { room, chatId }, file, this.#now());
    this.#sentFiles.add(chatId, message);
    this.#broadcast(room, chatId, { type: "message", message });
    return { messageId: message.id, chatId: target.chatId, sentAt: message.at };
  }

  /**
   * The bytes of a file a browser attached (uploaded to this instance). Contract: AttachmentFetchError `too-large`
   * over `maxBytes`, `not-found` for a file not here — in a cluster, one another instance took.
   */
  fetchAttachment(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
    return this.#attachments.fetch(location, options);
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

  get #maxAttachmentBytes(): number {
    return this.#options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
  }

  /** Opens the files directory, removes stale unsent uploads, and shows the files sent before on later pages. */
  async #openFiles(): Promise<void> {
    await this.#files.open();
    const kept = await this.#files.sweep(this.#now(), UNSENT_UPLOAD_MAX_AGE_MS);
    const sent = kept.flatMap(({ id, meta }) => (meta.kind === "sent" ? [{ id, meta }] : []));
    for (const { id, meta } of sent.sort((a, b) => a.meta.at - b.meta.at)) {
      this.#sentFiles.add(meta.chatId, sentFileMessage(id, meta));
    }
  }

  #placeOf(target: SendTarget): { room: WebchatRoom; chatId: string } {
    if (target.chatType === "group") {
      if (target.chatId !== GROUP_CHAT_ID) throw new ChannelError("not-found", `webchat: no group "${target.chatId}"`);
      return { room: "group", chatId: GROUP_CHAT_ID };
    }
    return { room: "dm", chatId: target.chatId };
  }

  /** A message id; in a cluster with this instance's tag, so that ids from two instances never meet in a chat. */
  #newId(prefix: "m" | "u"): string {
    const n = this.#nextId++;
    return this.#options.relay === undefined ? `${prefix}${n}` : `${prefix}${n}.${this.#instance}`;
  }

  /** Shows a frame here and, in a cluster, on every other instance. */
  #broadcast(room: WebchatRoom, chatId: string, frame: RelayedFrame["frame"]): void {
    this.#showHere(room, chatId, frame);
    const relay = this.#options.relay;
    if (relay !== undefined) void relay.publish(relayTopic(this.accountId), JSON.stringify({ room, chatId, frame }));
  }

  /** A frame another instance showed: kept as a live message of the chat (for later pages) and shown here. */
  #relayed(payload: string): void {
    const relayed = parseRelayedFrame(payload);
    if (relayed === undefined) return;
    const { room, chatId, frame } = relayed;
    if (frame.type === "message") this.#live.add(chatId, frame.message);
    if (frame.type === "edit") this.#live.edit(chatId, frame.id, frame.text);
    if (frame.type === "delete") this.#live.remove(chatId, frame.id);
    this.#showHere(room, chatId, frame);
  }

  /** A group frame goes to every browser; a DM frame only to the browser whose public id is that chat. */
  #showHere(room: WebchatRoom, chatId: string, frame: ServerFrame): void {
    const data = JSON.stringify(frame);
    for (const client of this.#clients) {
      if (room === "group" || client.publicId === chatId) client.socket.send(data);
    }
  }

  #onSocket(socket: WebSocket, request: IncomingMessage): void {
    const key = this.#key as Buffer;
    // No credential (a client that never loaded the page): a fresh one, so this connection is nobody else.
    const publicId = publicIdOf(key, credentialFromCookie(request.headers.cookie) ?? newCredential());
    const admin = (this.#options.localAdmin ?? true) && isLoopbackRequest(request);
    const client: Client = { socket, publicId, admin, intake: Promise.resolve() };
    const pending: ClientFrame[] = [];
    let ready = false;
    socket.on("message", (data) => {
      let frame: ClientFrame;
      try {
        frame = clientFrameSchema.parse(JSON.parse(String(data)));
      } catch {
        socket.send(JSON.stringify({ type: "error", message: "unreadable frame" } satisfies ServerFrame));
        return;
      }
      if (ready) void this.#onFrame(client, frame);
      else pending.push(frame);
    });
    socket.on("close", () => this.#clients.delete(client));
    socket.on("error", () => this.#clients.delete(client));
    void this.#storedHistory(publicId).then((stored) => {
      if (socket.readyState !== socket.OPEN) return;
      // The live messages are read after the store, so nothing shown meanwhile is missed.
      const live = [publicId, GROUP_CHAT_ID].flatMap((chat) => [
        ...this.#live.list(chat),
        ...this.#sentFiles.list(chat),
      ]);
      const history = mergeHistory(stored, live);
      socket.send(
        JSON.stringify({
          type: "hello",
          publicId,
          name: guestName(publicId),
          admin,
          history,
          maxUploadBytes: this.#maxAttachmentBytes,
        } satisfies ServerFrame),
      );
      this.#clients.add(client);
      ready = true;
      for (const frame of pending.splice(0)) void this.#onFrame(client, frame);
    });
  }

  async #storedHistory(publicId: string): Promise<readonly WebchatMessage[]> {
    if (this.#options.storedHistory === undefined) return [];
    try {
      return await this.#options.storedHistory(publicId);
    } catch (error) {
      this.#options.onError?.(error);
      return [];
    }
  }

  async #onFrame(client: Client, frame: ClientFrame): Promise<void> {
    // In order per connection: a message attaching files is shown (and reaches the sink) before the next one.
    const taken = client.intake.then(() => this.#take(client, frame));
    client.intake = taken.then(
      () => undefined,
      () => undefined,
    );
    const inbound = await taken;
    const sink = this.#sink;
    if (inbound === undefined || sink === undefined) return;
    // The admin mark travels with this one message (by its event id), never with the sender id.
    if (client.admin) this.#options.onAdminMessage?.(inbound.eventId);
    try {
      await sink(inbound);
    } catch (error) {
      client.socket.send(
        JSON.stringify({
          type: "error",
          message: `could not take the message: ${String(error)}`,
        } satisfies ServerFrame),
      );
    }
  }

  /** Shows a browser's message and builds it for the sink; undefined when it is refused (the browser is told). */
  async #take(client: Client, frame: ClientFrame): Promise<InboundMessage | undefined> {
    if (!this.#accepting || this.#sink === undefined) {
      client.socket.send(JSON.stringify({ type: "error", message: "the bot is shutting down" } satisfies ServerFrame));
      return undefined;
    }
    const chatId = frame.room === "dm" ? client.publicId : GROUP_CHAT_ID;
    const id = this.#newId("u");
    const files = await this.#attach(client, frame, chatId, id);
    if (files === undefined) return undefined;
    const at = this.#now();
    const name = guestName(client.publicId);
    const shown: WebchatMessage = {
      id,
      room: frame.room,
      role: "user",
      text: frame.text,
      senderName: name,
      senderId: client.publicId,
      at,
      ...(files.shown.length === 0 ? {} : { files: files.shown }),
    };
    this.#live.add(chatId, shown);
    this.#broadcast(frame.room, chatId, { type: "message", message: shown });
    const inbound: InboundMessage = {
      channel: this.id,
      accountId: this.accountId,
      chatType: frame.room,
      chatId,
      messageId: id,
      eventId: `${client.publicId}:${this.#instance}:${id}:${at}`,
      sender: { id: client.publicId, name, isBot: false },
      text: frame.text,
      // Everyone in the shared room is talking to the bot; there is nobody else to address.
      mentionsBot: true,
      replyToBot: false,
      attachments: files.attachments,
      receivedAt: at,
    };
    return inbound;
  }

  /** The uploads a frame attaches (only this browser's own); undefined when refused (the browser is told). */
  async #attach(client: Client, frame: ClientFrame, chatId: string, id: string): Promise<AttachedFiles | undefined> {
    if (frame.attachments === undefined || frame.attachments.length === 0) return { attachments: [], shown: [] };
    try {
      return await this.#attachments.attach(frame.attachments, client.publicId, chatId, id);
    } catch (error) {
      const message =
        error instanceof UploadNotAttachableError ? error.message : `could not attach the files: ${String(error)}`;
      client.socket.send(JSON.stringify({ type: "error", message } satisfies ServerFrame));
      return undefined;
    }
  }
}
