import { createReadStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { credentialFromCookie, publicIdOf } from "./browser-identity.js";
import { isSameOrigin } from "./local-request.js";
import type { WebchatAccess } from "./webchat-access.js";
import { UploadTooLargeError, type WebchatFileStore } from "./webchat-file-store.js";
import { inlineImageType, safeMimeType, uploadName } from "./webchat-file-types.js";

/** What the file routes need of the channel. */
export interface WebchatFileRoutesOptions {
  readonly store: WebchatFileStore;
  readonly access: WebchatAccess;
  /** The server key (a browser's public id is derived from its credential with it). */
  readonly key: Buffer;
  /** The largest upload taken, in bytes. */
  readonly maxUploadBytes: number;
  /** Whether messages (and so uploads) are taken now. */
  readonly accepting: () => boolean;
  readonly now: () => number;
  /** Told when a stored file cannot be written or read. */
  readonly onError?: (error: unknown) => void;
}

const DOWNLOAD_PATH = /^\/files\/([A-Za-z0-9_-]{32})$/;

/**
 * `POST /upload?name=<file name>` (the body is the file, its Content-Type the declared type; answered 201 with
 * `{id, name, mimeType, sizeBytes}`) and `GET /files/<id>` (a file the bot sent).
 * Contract: both are refused (403) for a request from another origin, without the access proof, or — uploads —
 * without the browser's credential cookie, exactly as the WebSocket is; an upload over the cap is 413, before more
 * than the cap is read (at once when its Content-Length says so) and with nothing kept. A file is served only to
 * browsers of the chat it was sent to (its DM's browser, or anyone admitted for the group); to anyone else it is 404,
 * like a file that does not exist. Returns false for any other path (the caller serves it).
 */
export function webchatFileRoutes(
  options: WebchatFileRoutesOptions,
): (request: IncomingMessage, response: ServerResponse, path: string) => boolean {
  return (request, response, path) => {
    if (path === "/upload") {
      if (request.method !== "POST") {
        response.writeHead(405, { allow: "POST" }).end();
        return true;
      }
      void receiveUpload(request, response, options);
      return true;
    }
    const download = DOWNLOAD_PATH.exec(path);
    if (download === null) return false;
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return true;
    }
    void serveFile(request, response, download[1] as string, options);
    return true;
  };
}

/** The public id of the browser making the request, when it is let in at all; a sentence why not otherwise. */
function browserOf(
  request: IncomingMessage,
  options: WebchatFileRoutesOptions,
): { publicId?: string; refusal?: string } {
  if (!isSameOrigin(request)) return { refusal: "files go through this WebChat's own page only" };
  if (!options.access.granted(request)) return { refusal: "this WebChat asks for its access token first: open /" };
  const credential = credentialFromCookie(request.headers.cookie);
  return credential === undefined ? {} : { publicId: publicIdOf(options.key, credential) };
}

async function receiveUpload(
  request: IncomingMessage,
  response: ServerResponse,
  options: WebchatFileRoutesOptions,
): Promise<void> {
  const { publicId, refusal } = browserOf(request, options);
  if (refusal !== undefined || publicId === undefined) {
    refuse(response, 403, refusal ?? "no browser identity: open / in the browser first");
    return;
  }
  if (!options.accepting()) {
    refuse(response, 503, "the bot is not taking messages now");
    return;
  }
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (declared > options.maxUploadBytes) {
    refuse(response, 413, tooLarge(options.maxUploadBytes));
    return;
  }
  const query = new URL(request.url ?? "/", "http://localhost").searchParams;
  const name = uploadName(query.get("name"));
  const mimeType = safeMimeType(request.headers["content-type"]);
  try {
    const id = await options.store.receive(
      request,
      { name, owner: publicId, at: options.now(), ...(mimeType === undefined ? {} : { mimeType }) },
      options.maxUploadBytes,
    );
    const meta = await options.store.meta(id);
    response
      .writeHead(201, { "content-type": "application/json", "cache-control": "no-store" })
      .end(JSON.stringify({ id, name, mimeType: mimeType ?? null, sizeBytes: meta?.sizeBytes ?? 0 }));
  } catch (error) {
    if (error instanceof UploadTooLargeError) {
      refuse(response, 413, tooLarge(options.maxUploadBytes));
      return;
    }
    if (response.headersSent || request.destroyed) return;
    options.onError?.(error);
    refuse(response, 500, "the file could not be stored");
  }
}

async function serveFile(
  request: IncomingMessage,
  response: ServerResponse,
  id: string,
  options: WebchatFileRoutesOptions,
): Promise<void> {
  const { publicId, refusal } = browserOf(request, options);
  if (refusal !== undefined) {
    refuse(response, 403, refusal);
    return;
  }
  const meta = await options.store.meta(id);
  const path = options.store.pathOf(id);
  const allowed = meta?.kind === "sent" && (meta.room === "group" || meta.chatId === publicId);
  if (!allowed || path === undefined) {
    refuse(response, 404, "not found");
    return;
  }
  const mimeType = safeMimeType(meta.mimeType) ?? "application/octet-stream";
  const disposition = inlineImageType(mimeType) ? "inline" : "attachment";
  response.writeHead(200, {
    "content-type": mimeType,
    "content-length": String(meta.sizeBytes),
    "content-disposition": `${disposition}; filename="${asciiName(meta.name)}"; filename*=UTF-8''${encodeRFC5987(meta.name)}`,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "private, no-cache",
  });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  const stream = createReadStream(path);
  stream.once("error", (error) => {
    options.onError?.(error);
    response.destroy();
  });
  stream.pipe(response);
}

/** Answers with a sentence; `Connection: close`, so a body not read (an upload refused) is never read. */
function refuse(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(text);
}

function tooLarge(maxBytes: number): string {
  const shown = maxBytes >= 1024 * 1024 ? `${Math.floor(maxBytes / (1024 * 1024))} MB` : `${maxBytes} bytes`;
  return `the file is larger than this WebChat takes (${shown})`;
}

/** The name in a quoted header parameter: ASCII, no quotes or backslashes. */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, "_");
}

function encodeRFC5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
