import { describeError, type InstanceBroadcast } from "@chorus/store";
import type { ClientConfig } from "pg";
import type { Db } from "../query-runner.js";
import { WakeListener } from "./wake-listener.js";

/** NOTIFY payloads must stay under 8000 bytes: a message is sent in parts of at most this many payload bytes. */
const PART_BYTES = 6000;

/** Messages split in parts whose other parts have not arrived yet, at most this many (the oldest dropped). */
const MAX_PARTIAL = 64;

/** One notification: part `n` of `c` of message `i` from sender `f` on topic `t`. */
interface Part {
  readonly f: string;
  readonly t: string;
  readonly i: number;
  readonly n: number;
  readonly c: number;
  readonly p: string;
}

/**
 * `InstanceBroadcast` on PostgreSQL `NOTIFY`: one channel per schema (`chorus_bcast_<schema>`), listened to on a
 * connection of its own, opened at the first `subscribe`. A message longer than a notification may be is sent in
 * parts, all in one statement (one transaction, so they arrive together); publishes go out one after another, so
 * they arrive in order. Nothing is stored: an instance that is not listening at that moment misses the message.
 * Contract: see `InstanceBroadcast`; `close` stops listening, and later publishes do nothing.
 */
export class PostgresInstanceBroadcast implements InstanceBroadcast {
  readonly #db: Db;
  readonly #clientConfig: ClientConfig;
  readonly #channel: string;
  readonly #sender: string;
  readonly #onWarning: (message: string) => void;
  readonly #handlers = new Map<string, Set<(payload: string) => void>>();
  readonly #partial = new Map<string, string[]>();
  #listening: Promise<WakeListener> | undefined;
  #publishing: Promise<void> = Promise.resolve();
  #nextId = 1;
  #closed = false;

  constructor(parts: {
    db: Db;
    clientConfig: ClientConfig;
    schema: string;
    /** This process's unique id (the lease owner id): its own messages are not handed back to it. */
    sender: string;
    onWarning: (message: string) => void;
  }) {
    this.#db = parts.db;
    this.#clientConfig = parts.clientConfig;
    this.#channel = `chorus_bcast_${parts.schema}`.toLowerCase().slice(0, 63);
    this.#sender = parts.sender;
    this.#onWarning = parts.onWarning;
  }

  publish(topic: string, payload: string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const id = this.#nextId++;
    const chunks = splitByBytes(payload, PART_BYTES);
    const notes = chunks.map((p, n) =>
      JSON.stringify({ f: this.#sender, t: topic, i: id, n, c: chunks.length, p } satisfies Part),
    );
    const send = async (): Promise<void> => {
      try {
        await this.#db.query("SELECT pg_notify($1, note) FROM unnest($2::text[]) AS note", [this.#channel, notes]);
      } catch (error) {
        this.#onWarning(`Could not tell the other instances (${topic}): ${describeError(error)}`);
      }
    };
    this.#publishing = this.#publishing.then(send);
    return this.#publishing;
  }

  async subscribe(topic: string, handler: (payload: string) => void): Promise<() => void> {
    if (this.#closed) throw new Error("This store is closed.");
    const set = this.#handlers.get(topic) ?? new Set();
    set.add(handler);
    this.#handlers.set(topic, set);
    try {
      await this.#listen();
    } catch (error) {
      set.delete(handler);
      throw error;
    }
    return () => {
      set.delete(handler);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#handlers.clear();
    const listening = this.#listening;
    this.#listening = undefined;
    await this.#publishing;
    await listening?.then((listener) => listener.stop()).catch(() => {});
  }

  #listen(): Promise<WakeListener> {
    this.#listening ??= (async () => {
      const listener = new WakeListener({
        config: this.#clientConfig,
        channel: this.#channel,
        onPayload: (payload) => this.#received(payload),
        onReconnect: () => {},
        onWarning: this.#onWarning,
        lostWarning:
          "Lost the connection that listens to the other instances; reconnecting (what they send meanwhile is missed).",
      });
      await listener.start();
      return listener;
    })();
    const listening = this.#listening;
    // A failed start is not kept: the next subscribe tries again.
    listening.catch(() => {
      if (this.#listening === listening) this.#listening = undefined;
    });
    return listening;
  }

  #received(note: string): void {
    let part: Part;
    try {
      part = JSON.parse(note) as Part;
    } catch {
      return;
    }
    if (part.f === this.#sender || typeof part.p !== "string") return;
    const handlers = this.#handlers.get(part.t);
    if (handlers === undefined || handlers.size === 0) return;
    const payload = this.#assemble(part);
    if (payload === undefined) return;
    for (const handler of handlers) {
      try {
        handler(payload);
      } catch (error) {
        this.#onWarning(`A handler of ${part.t} failed: ${describeError(error)}`);
      }
    }
  }

  /** The whole message once its last part is in, else undefined. */
  #assemble(part: Part): string | undefined {
    if (part.c === 1) return part.p;
    const key = `${part.f}/${part.i}`;
    const parts = this.#partial.get(key) ?? [];
    parts[part.n] = part.p;
    this.#partial.set(key, parts);
    if (this.#partial.size > MAX_PARTIAL) this.#partial.delete(this.#partial.keys().next().value as string);
    if (parts.filter((p) => p !== undefined).length < part.c) return undefined;
    this.#partial.delete(key);
    return parts.join("");
  }
}

/** `text` cut into pieces whose JSON string form (without quotes) is at most `maxBytes` bytes of UTF-8 each. */
export function splitByBytes(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(JSON.stringify(char)) - 2;
    if (bytes + size > maxBytes && current !== "") {
      pieces.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  pieces.push(current);
  return pieces;
}
