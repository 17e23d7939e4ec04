import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Handles one request whose body has been read completely. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse, rawBody: Buffer) => void | Promise<void>;

/** A started HTTP server on 127.0.0.1. */
export interface HttpListener {
  readonly server: Server;
  readonly port: number;
  /** `http://127.0.0.1:PORT` without a trailing slash. */
  readonly origin: string;
  /** Stops listening and destroys every open connection (held long polls included). */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1, port 0.
 * Contract: a handler that throws answers 500 instead of crashing the test process.
 */
export async function listenHttp(handler: RequestHandler): Promise<HttpListener> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      Promise.resolve()
        .then(() => handler(req, res, body))
        .catch((error: unknown) => {
          if (res.headersSent) {
            res.destroy();
            return;
          }
          sendJson(res, 500, { error: "fake server error", detail: String(error) });
        });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Writes a JSON response. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Writes an empty response (e.g. 204). */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}
