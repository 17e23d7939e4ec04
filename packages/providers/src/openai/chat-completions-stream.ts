import type OpenAI from "openai";
import { ProviderHttpError } from "../errors/provider-http-error.js";
import { readServerSentEvents } from "../stream/server-sent-events.js";

/** Where one Chat Completions call goes. */
export interface ChatEndpoint {
  /** The API root including `/v1`, e.g. "https://api.openai.com/v1". */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …`; "not-needed" when undefined, as the openai SDK sends (local servers). */
  readonly apiKey: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/** OpenAI's own API root, as the openai SDK defaults it (`OPENAI_BASE_URL` overrides it there too). */
export const OPENAI_API_ROOT = "https://api.openai.com/v1";

/**
 * One streamed Chat Completions call over `fetch`: POSTs `body` (JSON text) and yields the chunks of its
 * server-sent events until `[DONE]`. Why not the openai SDK: its per-request machinery (header building, the
 * observed JSON encoder, stream wrappers) cost ~0.3 ms per call — more than the rest of a short turn's model call
 * (bench/README.md, "Removed costs"); the wire protocol is small and fixed.
 * Contract: a non-2xx answer throws `ProviderHttpError`; an `error` event or an `error` object in a chunk throws an
 * error carrying it (classified like the SDKs' mid-stream errors); fetch and abort errors are thrown as they are.
 */
export async function* streamChatCompletion(
  endpoint: ChatEndpoint,
  body: string,
  signal: AbortSignal,
): AsyncGenerator<OpenAI.Chat.ChatCompletionChunk> {
  const headers = new Headers({
    accept: "text/event-stream",
    "content-type": "application/json",
    authorization: `Bearer ${endpoint.apiKey ?? "not-needed"}`,
  });
  // The configured headers win, whatever their case (an `Authorization` of a gateway in front of the API).
  for (const [name, value] of Object.entries(endpoint.headers)) headers.set(name, value);
  const response = await fetch(`${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
    method: "POST",
    headers,
    body,
    signal,
  });
  if (!response.ok) throw await ProviderHttpError.of(response);
  if (response.body === null) return;
  // Our own reader (not the body's iterator): a body still open after [DONE] is cut by cancelling it, with no second
  // signal to combine with the caller's (`AbortSignal.any` cost 12 µs a call).
  const reader = response.body.getReader();
  const events = readServerSentEvents(readChunks(reader));
  let finished = false;
  try {
    for (;;) {
      const next = await events.next();
      if (next.done === true) return;
      const event = next.value;
      if (event.data === "") continue;
      if (event.data.startsWith("[DONE]")) {
        finished = true;
        finishInBackground(events, reader);
        return;
      }
      const chunk = JSON.parse(event.data) as OpenAI.Chat.ChatCompletionChunk & { error?: unknown };
      if (event.event === "error" || chunk.error !== undefined) throw streamError(chunk.error ?? chunk);
      yield chunk;
    }
  } finally {
    // Left early (an error, the reader stopped): close the body now.
    if (!finished) {
      await events.return(undefined);
      await reader.cancel().catch(() => {});
    }
  }
}

async function* readChunks(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

const BODY_END_GRACE_MS = 5_000;

/**
 * Reads a finished answer's body to its end off the caller's path. Why not cancel it: cancelling a body makes fetch
 * abort it, which costs an AbortError (a DOMException and its stack) on every call. A body still open after the
 * grace is cancelled.
 */
function finishInBackground(events: AsyncGenerator<unknown>, reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), BODY_END_GRACE_MS);
  timer.unref();
  void (async () => {
    try {
      while ((await events.next()).done !== true);
    } catch {
      // Cut by the grace timer or the caller's signal: the answer was already complete.
    } finally {
      clearTimeout(timer);
    }
  })();
}

/** A mid-stream error: no status; its body's message and fields name the kind (overloaded, rate_limit…). */
function streamError(error: unknown): Error {
  const fields = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
  const message = typeof fields.message === "string" ? fields.message : JSON.stringify(error);
  return Object.assign(new Error(message), { error, code: fields.code, type: fields.type });
}
