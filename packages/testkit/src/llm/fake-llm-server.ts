import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type MediaParts, mediaParts, type RecordedDocument, type RecordedImage } from "./media-parts.js";
import { type FakeHttpFault, type FakeLlmScript, isHttpFault } from "./script.js";
import type { WireAction, WireContext, WireErrorResponse } from "./wire-action.js";

/** One file of a `multipart/form-data` request (an audio upload). */
export interface RecordedUpload {
  /** The form field that carried it (`file`). */
  field: string;
  /** The file name the client gave. */
  name: string;
  /** The part's Content-Type, when the client gave one. */
  contentType?: string;
  bytes: Buffer;
}

/**
 * One request a fake received, as sent: lower-cased headers and the parsed JSON body (a multipart request: its text
 * fields, and its files in `files`).
 */
export interface RecordedLlmRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The uploaded files of a `multipart/form-data` request; absent for a JSON one. */
  files?: RecordedUpload[];
  /**
   * The images the model was sent, decoded, in order (Anthropic `image` blocks, OpenAI `image_url` / `input_image`
   * parts, tool results included). Read on first use, not enumerable: `toEqual` on a request ignores it.
   */
  readonly images: readonly RecordedImage[];
  /** The documents the model was sent (Anthropic `document`, OpenAI `file` / `input_file`), decoded, in order. */
  readonly documents: readonly RecordedDocument[];
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

/**
 * A route that answers from the request alone, without the script queue (e.g. embeddings): JSON, or plain text when
 * `body` is a string and `headers` give a `content-type`.
 */
export interface FakeJsonRoute {
  json(request: RecordedLlmRequest): { status: number; body: unknown; headers?: Record<string, string> };
}

/** Server-wide behaviour beside the routes. */
export interface FakeLlmServerOptions {
  /** Checks every request's credentials first (after recording it); an answer refuses the request with it. */
  authorize?(request: RecordedLlmRequest): WireErrorResponse | undefined;
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
  options: FakeLlmServerOptions = {},
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
    if (typeof body === "string" && headers["content-type"] !== undefined) {
      res.writeHead(status, headers);
      res.end(body);
      return;
    }
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let body: Record<string, unknown> = {};
    let files: RecordedUpload[] | undefined;
    const contentType = req.headers["content-type"] ?? "";
    if (/^\s*multipart\/form-data/i.test(contentType)) {
      const form = await readMultipart(contentType, raw);
      if (form === undefined) {
        sendJson(res, 400, { error: { message: "fake LLM server: malformed multipart/form-data body" } });
        return;
      }
      ({ body, files } = form);
    } else {
      try {
        body = raw.length > 0 ? (JSON.parse(raw.toString("utf8")) as Record<string, unknown>) : {};
      } catch {
        sendJson(res, 400, { error: { message: "fake LLM server: request body is not JSON" } });
        return;
      }
    }
    const request = recordedRequest(req.method ?? "GET", path, flatHeaders(req), body, files);
    requests.push(request);
    const refused = options.authorize?.(request);
    if (refused !== undefined) {
      sendJson(res, refused.status, refused.body, refused.headers);
      return;
    }
    const route = routes[path];
    if (!route || req.method !== "POST") {
      sendJson(res, 404, { error: { message: `fake LLM server: no route ${req.method} ${path}` } });
      return;
    }
    if ("json" in route) {
      const answer = route.json(request);
      sendJson(res, answer.status, answer.body, answer.headers);
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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A `multipart/form-data` body's text fields and files, parsed as a server would; undefined when it is malformed. */
async function readMultipart(
  contentType: string,
  raw: Buffer,
): Promise<{ body: Record<string, unknown>; files: RecordedUpload[] } | undefined> {
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { "content-type": contentType } }).formData();
  } catch {
    return undefined;
  }
  const body: Record<string, unknown> = {};
  const files: RecordedUpload[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") body[field] = value;
    else {
      const bytes = Buffer.from(await value.arrayBuffer());
      files.push({ field, name: value.name, ...(value.type === "" ? {} : { contentType: value.type }), bytes });
    }
  }
  return { body, files };
}

/** A recorded request whose `images` and `documents` are decoded on first read (never, for most requests). */
function recordedRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  files: RecordedUpload[] | undefined,
): RecordedLlmRequest {
  const request = { method, path, headers, body, ...(files === undefined ? {} : { files }) };
  let media: MediaParts | undefined;
  const read = () => {
    media ??= mediaParts(request);
    return media;
  };
  Object.defineProperties(request, {
    images: { get: () => read().images, enumerable: false },
    documents: { get: () => read().documents, enumerable: false },
  });
  return request as RecordedLlmRequest;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
