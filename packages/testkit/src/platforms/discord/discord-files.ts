import { createHmac, randomBytes } from "node:crypto";

/** An attachment as a message carries it. */
export interface DiscordAttachment {
  readonly id: string;
  readonly filename: string;
  readonly size: number;
  readonly content_type: string;
  /** A signed CDN link that expires (`ex`, `is`, `hm`); past `ex` the CDN answers 404 until it is refreshed. */
  readonly url: string;
  readonly proxy_url: string;
}

/** What a test attaches: the bytes, a name and a type. */
export interface AttachedFile {
  readonly bytes: Uint8Array;
  readonly filename: string;
  readonly contentType: string;
}

/**
 * The files people attached, behind signed links that expire as Discord's CDN links do: `/attachments/<channel>/<id>/
 * <name>?ex=<hex expiry>&is=<hex issued>&hm=<signature>`; `refresh(url)` signs a fresh link for the same file.
 */
export class DiscordFiles {
  readonly #secret = randomBytes(16);
  readonly #files = new Map<string, AttachedFile>();
  readonly #ttlMs: number;
  readonly #now: () => number;
  #origin = "";

  constructor(ttlMs: number, now: () => number = () => Date.now()) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** Where the links point (the fake's own origin, once it listens). */
  set origin(origin: string) {
    this.#origin = origin;
  }

  /** Keeps an attached file under `id` in `channelId`, with a fresh signed link. */
  add(file: AttachedFile, channelId: string, id: string): DiscordAttachment {
    const path = `/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`;
    this.#files.set(path, file);
    const url = this.#signed(path);
    return {
      id,
      filename: file.filename,
      size: file.bytes.byteLength,
      content_type: file.contentType,
      url,
      proxy_url: url,
    };
  }

  /** A fresh link for a link this CDN issued (expired or not); undefined for any other. */
  refresh(url: string): string | undefined {
    const path = this.#pathOf(url);
    return path === undefined || !this.#files.has(path) ? undefined : this.#signed(path);
  }

  /** The file a link gives now: undefined when it is unknown, tampered with or expired. */
  serve(path: string, query: URLSearchParams): AttachedFile | undefined {
    const file = this.#files.get(path);
    const ex = query.get("ex") ?? "";
    const is = query.get("is") ?? "";
    if (file === undefined || query.get("hm") !== this.#signature(path, ex, is)) return undefined;
    return Number.parseInt(ex, 16) * 1000 > this.#now() ? file : undefined;
  }

  #signed(path: string): string {
    const now = this.#now();
    const is = Math.floor(now / 1000).toString(16);
    const ex = Math.floor((now + this.#ttlMs) / 1000).toString(16);
    return `${this.#origin}${path}?ex=${ex}&is=${is}&hm=${this.#signature(path, ex, is)}&`;
  }

  #signature(path: string, ex: string, is: string): string {
    return createHmac("sha256", this.#secret).update(`${path}|${ex}|${is}`).digest("hex");
  }

  #pathOf(url: string): string | undefined {
    try {
      return new URL(url).pathname;
    } catch {
      return undefined;
    }
  }
}
