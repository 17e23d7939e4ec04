import { type IncomingHttpHeaders, request } from "node:http";

/** What a server answered. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** How many of the body's chunks were written before the answer came. */
  readonly chunksSent: number;
}

/**
 * One HTTP request with exactly these headers (Origin, Cookie, Content-Length included), its body sent in `chunks`
 * one after the other (chunked, unless a Content-Length is given). Resolves with the answer as soon as it is
 * complete, even when the server answered before the body was sent (the rest is then not sent).
 */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: readonly Uint8Array[] } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let chunksSent = 0;
    const outgoing = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on("data", (chunk: Buffer) => parts.push(chunk));
      response.once("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(parts),
          chunksSent,
        }),
      );
      response.once("error", reject);
    });
    outgoing.on("error", (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for (const chunk of options.chunks ?? []) {
        if (answered || outgoing.destroyed) return;
        outgoing.write(chunk);
        chunksSent++;
        await new Promise((next) => setTimeout(next, 5));
      }
      if (!answered && !outgoing.destroyed) outgoing.end();
    })();
  });
}

/** Uploads `bytes` as a browser of the page at `base` would (its Origin), with `cookie`; override any header. */
export function upload(
  base: string,
  bytes: Uint8Array,
  options: { name?: string; type?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  return httpRequest(new URL(`upload?name=${encodeURIComponent(options.name ?? "file.bin")}`, base).toString(), {
    method: "POST",
    headers: {
      origin: new URL(base).origin,
      "content-type": options.type ?? "application/octet-stream",
      "content-length": String(bytes.byteLength),
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...options.headers,
    },
    chunks: [bytes],
  });
}
