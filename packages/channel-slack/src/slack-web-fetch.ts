import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** The WebClient's `fetch`: what it calls and what it reads of the answer (status, headers, text). */
export type SlackWebFetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for the Slack WebClient over node:http(s) with keep-alive connections. Node's global fetch (undici) wrote a
 * reply's request several event-loop turns after the call (other chats' work ran in each of them first), and put a
 * resource-timing entry per call in the global performance buffer (once full, each call queued a "buffer full" event). Web API calls are url-encoded form posts with small JSON answers:
 * those take this path; anything else (a multipart file upload) goes to the global fetch.
 * Contract: the whole call, answer body included, is given up after `timeoutMs` (rejecting like an aborted fetch);
 * the caller's `signal` aborts it too; redirects are not followed (the WebClient asks for `redirect: "error"`).
 */
export function slackWebFetch(timeoutMs: number): SlackWebFetch {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true }),
    "https:": new HttpsAgent({ keepAlive: true }),
  };
  return (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const protocol = url.startsWith("https:") ? "https:" : url.startsWith("http:") ? "http:" : undefined;
    if (typeof init.body !== "string" || protocol === undefined || input instanceof Request) {
      return fetch(input, timeoutMs > 0 ? { ...init, signal: withTimeout(init.signal, timeoutMs) } : init);
    }
    return post(url, protocol, init, init.body, agents[protocol], timeoutMs);
  };
}

function withTimeout(signal: AbortSignal | null | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function post(
  url: string,
  protocol: "http:" | "https:",
  init: RequestInit,
  body: string,
  agent: HttpAgent,
  timeoutMs: number,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers = { ...headersOf(init.headers), "content-length": String(Buffer.byteLength(body)) };
    const send = protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, { method: init.method ?? "POST", headers, agent });
    let timer: NodeJS.Timeout | undefined;
    const signal = init.signal ?? undefined;
    const fail = (error: Error): void => {
      req.destroy(error);
      reject(error);
    };
    const onAbort = (): void => fail(abortError(signal?.reason));
    const done = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (signal?.aborted) {
      reject(abortError(signal.reason));
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs > 0) {
      timer = setTimeout(
        () => fail(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
        timeoutMs,
      );
    }
    req.on("error", (error) => {
      done();
      reject(error);
    });
    req.on("response", (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (error) => {
        done();
        reject(error);
      });
      res.on("end", () => {
        done();
        const status = res.statusCode ?? 0;
        // A Response may not carry a body with these statuses.
        const text = status === 204 || status === 304 ? null : Buffer.concat(chunks).toString("utf8");
        resolve(new Response(text, { status, statusText: res.statusMessage ?? "", headers: responseHeaders(res) }));
      });
    });
    req.end(body);
  });
}

function headersOf(headers: RequestInit["headers"]): Record<string, string> {
  if (headers === undefined) return {};
  // The WebClient passes a plain object; a Headers or a list of pairs is read through Headers.
  if (!(headers instanceof Headers) && !Array.isArray(headers)) return headers as Record<string, string>;
  return Object.fromEntries(new Headers(headers).entries());
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  }
  return headers;
}

function abortError(reason: unknown): Error {
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}
