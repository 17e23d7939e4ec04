import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Turns a node:http request into a Web `Request` (what Chat SDK's `bot.webhooks.*` take) and writes the Web
 * `Response` back, the way a Node server in front of a Chat SDK bot does.
 * Contract: reads the whole body first; never throws (a failing handler answers 500).
 */
export async function serveWebHandler(
  req: IncomingMessage,
  res: ServerResponse,
  handler: (request: Request) => Promise<Response>,
): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    }
    const method = req.method ?? "GET";
    const init: RequestInit = { method, headers };
    if (method !== "GET" && method !== "HEAD") init.body = Buffer.concat(chunks);
    const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, init);
    const response = await handler(request);
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(error));
  }
}
