import { WebSocket } from "ws";
import type { ServerFrame, WebchatActivity, WebchatRoom } from "../../src/webchat/webchat-protocol.js";

/** A WebChat page stand-in: one WebSocket with a browser cookie, and the chat as the page would show it. */
export class WebchatClient {
  readonly frames: ServerFrame[] = [];
  readonly texts = new Map<string, { room: WebchatRoom; role: string; text: string }>();
  readonly activities: { room: WebchatRoom; activity: WebchatActivity }[] = [];
  readonly #socket: WebSocket;
  readonly #waiters = new Set<() => void>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as ServerFrame;
      this.frames.push(frame);
      if (frame.type === "hello") for (const m of frame.history) this.texts.set(m.id, m);
      if (frame.type === "message") this.texts.set(frame.message.id, frame.message);
      if (frame.type === "edit") {
        const known = this.texts.get(frame.id);
        if (known) this.texts.set(frame.id, { ...known, text: frame.text });
      }
      if (frame.type === "delete") this.texts.delete(frame.id);
      if (frame.type === "activity") this.activities.push({ room: frame.room, activity: frame.activity });
      for (const waiter of [...this.#waiters]) waiter();
    });
  }

  /**
   * Connects as a browser sending this Cookie header (e.g. `chorus_webchat=<credential>`; none: a fresh identity),
   * with the page's Origin, from `localAddress` when given (127.0.0.2 stands for another machine).
   */
  static async connect(
    baseUrl: string,
    options: { cookie?: string; localAddress?: string; headers?: Record<string, string> } = {},
  ): Promise<WebchatClient> {
    const url = new URL("ws", baseUrl).toString().replace(/^http/, "ws");
    const socket = new WebSocket(url, {
      headers: {
        origin: new URL(baseUrl).origin,
        ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
        ...options.headers,
      },
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
    });
    const client = new WebchatClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    await client.until(() => client.frames.some((frame) => frame.type === "hello"));
    return client;
  }

  /** The `hello` frame this connection got. */
  get hello(): Extract<ServerFrame, { type: "hello" }> {
    const hello = this.frames.find((frame) => frame.type === "hello");
    if (hello?.type !== "hello") throw new Error("no hello yet");
    return hello;
  }

  /** Sends a message, with the ids of files uploaded before (POST /upload) when given. */
  send(room: WebchatRoom, text: string, attachments?: readonly string[]): void {
    this.#socket.send(
      JSON.stringify({ type: "send", room, text, ...(attachments === undefined ? {} : { attachments }) }),
    );
  }

  /** The `error` frames this connection got, their messages. */
  get errors(): string[] {
    return this.frames.flatMap((frame) => (frame.type === "error" ? [frame.message] : []));
  }

  /** Sends `text` to a room and returns the bot's answer (its messages that arrive after it, joined). */
  async ask(room: WebchatRoom, text: string): Promise<string> {
    const before = this.botTexts(room).length;
    this.send(room, text);
    await this.until(() => this.botTexts(room).length > before);
    return this.botTexts(room).slice(before).join("\n");
  }

  /** Bot messages of a room as they read now. */
  botTexts(room: WebchatRoom): string[] {
    return [...this.texts.values()].filter((m) => m.room === room && m.role === "bot").map((m) => m.text);
  }

  /** Resolves once `predicate` holds (checked on every frame); bounded by the test's timeout. */
  until(predicate: () => boolean): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (predicate()) {
          this.#waiters.delete(check);
          resolve();
        }
      };
      this.#waiters.add(check);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#socket.readyState === WebSocket.CLOSED) resolve();
      else {
        this.#socket.once("close", () => resolve());
        this.#socket.close();
      }
    });
  }
}
