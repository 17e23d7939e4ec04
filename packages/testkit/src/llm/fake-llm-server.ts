import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type FakeHttpFault, type FakeLlmScript, isHttpFault } from "./script.js";
import type { WireAction, WireContext, WireErrorResponse } from "./wire-action.js";

/** One request a fake received, as sent: lower-cased headers and the parsed JSON body. */
export interface RecordedLlmRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** What `enqueue` takes: a script, or a function that writes the script from the request. */
export type FakeLlmScriptSource = FakeLlmScript | ((request: RecordedLlmRequest) => FakeLlmScript);

/** A running fake LLM server. */
export interface FakeLlmServer {
  /** Base URL to hand to the SDK (`baseURL`). */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedLlmRequest[];
  /** Queues scripts; each request consumes one, in order. */
  enqueue(...scripts: FakeLlmScriptSource[]): void;
  /** Scripts still waiting for a request. */
  pending(): number;
  /**
   * Ends every `stall` under way now; each of those scripts goes on with its next step. For a test that holds an
   * answer back until something else happened, instead of guessing how long that takes.
   * @example model.enqueue([{ type: "stall", ms: 60_000 }, { type: "text", text: "late" }]); … model.endStalls();
   */
  endStalls(): void;
  /** Stops listening and destroys every open socket; resolves when the server is closed. */
  close(): Promise<void>;
}

/** How one route turns a script into a response. */
export interface FakeStreamRoute {
  stream(script: FakeLlmScript, ctx: WireContext): WireAction[];
  error(fault: FakeHttpFault): WireErrorResponse;
  /** The real API's refusal of a malformed request (before any script is consumed); undefined when it is fine. */
  check?(body: Record<string, unknown>): WireErrorResponse | undefined;
}

/** A route that answers plain JSON from the request alone and consumes no script (e.g. embeddings). */
export interface FakeJsonRoute {
  json(request: RecordedLlmRequest): { status: number; body: unknown };
}

/** A scripted streaming route or a plain JSON one. */
export type FakeRoute = FakeStreamRoute | FakeJsonRoute;

/**
 * Starts an HTTP server on 127.0.0.1, port 0, that plays queued scripts on the given routes.
 * `answerEvery`, when given, answers every request that finds the queue empty (load tests).
 */
export async function startFakeLlmServer(
  routes: Record<string, FakeRoute>,
  urlSuffix: string,
  sseHeaders: Record<string, string> = {},
  answerEvery?: FakeLlmScriptSource,
): Promise<FakeLlmServer> {
  const requests: RecordedLlmRequest[] = [];
  const queue: FakeLlmScriptSource[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let seq = 0;
  let closing = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = { timer: setTimeout(() => done(), ms), resolve: () => done() };
      const done = () => {
        clearTimeout(entry.timer);
        timers.delete(entry);
        resolve();
      };
      timers.add(entry);
    });

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let body: Record<string, unknown> = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      sendJson(res, 400, { error: { message: "fake LLM server: request body is not JSON" } });
      return;
    }
    const request: RecordedLlmRequest = { method: req.method ?? "GET", path, headers: flatHeaders(req), body };
    requests.push(request);
    const route = routes[path];
    if (!route || req.method !== "POST") {
      sendJson(res, 404, { error: { message: `fake LLM server: no route ${req.method} ${path}` } });
      return;
    }
    if ("json" in route) {
      const answer = route.json(request);
      sendJson(res, answer.status, answer.body);
      return;
    }
    const refusal = route.check?.(body);
    if (refusal !== undefined) {
      sendJson(res, refusal.status, refusal.body, refusal.headers);
      return;
    }
    const source = queue.shift() ?? answerEvery;
    if (!source) {
      sendJson(res, 500, { error: { message: "fake LLM server: no script enqueued for this request" } });
      return;
    }
    const script = typeof source === "function" ? source(request) : source;
    const first = script[0];
    if (first && isHttpFault(first)) {
      const answer = route.error(first);
      sendJson(res, answer.status, answer.body, answer.headers);
      return;
    }
    if (body.stream !== true) {
      sendJson(res, 400, { error: { message: "fake LLM server: only streaming requests are supported" } });
      return;
    }
    const ctx: WireContext = { seq: ++seq, model: typeof body.model === "string" ? body.model : "fake-model", body };
    const actions = route.stream(script, ctx);
    let gone = false;
    res.on("close", () => {
      gone = true;
    });
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...sseHeaders,
    });
    res.flushHeaders();
    for (const action of actions) {
      if (gone || closing) return;
      if (action.kind === "frame") res.write(action.data);
      else if (action.kind === "stall") await sleep(action.ms);
      else if (action.kind === "cut") {
        // Let the frames already written reach the client before the connection dies.
        await new Promise<void>((resolve) => res.write("", () => resolve()));
        res.socket?.destroy();
        return;
      } else res.end();
    }
    if (!res.writableEnded) res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake LLM server: ${String(error)}` } });
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${urlSuffix}`,
    requests,
    enqueue: (...scripts) => {
      queue.push(...scripts);
    },
    pending: () => queue.length,
    endStalls: () => {
      for (const entry of [...timers]) entry.resolve();
    },
    close: async () => {
      closing = true;
      for (const entry of [...timers]) entry.resolve();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
