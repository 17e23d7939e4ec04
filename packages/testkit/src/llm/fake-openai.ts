import { type FakeLlmScriptSource, type FakeLlmServer, startFakeLlmServer } from "./fake-llm-server.js";
import { type ChatReasoningField, encodeOpenAIChatStream } from "./openai-chat-wire.js";
import { type FakeEmbedFunction, hashedWordEmbedding, openAIEmbeddingsRoute } from "./openai-embeddings-wire.js";
import { openAIErrorResponse } from "./openai-errors.js";
import { encodeOpenAIResponsesStream } from "./openai-responses-wire.js";
import {
  type FakeTranscription,
  openAITranscriptionsRoute,
  type RecordedTranscription,
} from "./openai-transcriptions-wire.js";
import type { WireErrorResponse } from "./wire-action.js";

/** Options for the fake OpenAI server. */
export interface FakeOpenAIOptions {
  /**
   * Where Chat Completions streams thinking steps: `none` (real OpenAI, the default),
   * `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama).
   */
  chatReasoningField?: ChatReasoningField;
  /**
   * Answers every request that finds the queue empty with this script (or the script this function writes from the
   * request), so a load test needs no `enqueue` per request. Default: none (such a request gets a 500).
   */
  answerEvery?: FakeLlmScriptSource;
  /** How `POST /v1/embeddings` turns a text into a vector. Default: `hashedWordEmbedding` (64 dimensions). */
  embed?: FakeEmbedFunction;
  /**
   * What `POST /v1/audio/transcriptions` answers, in order: each request takes (removes) the first entry — a text, an
   * HTTP fault step, or a function of the upload. The fake keeps this very array, so a test may push to it later.
   * @example const transcriptions: FakeTranscription[] = ["hello"]; await startFakeOpenAI({ transcriptions });
   */
  transcriptions?: FakeTranscription[];
  /**
   * Answers every transcription that finds `transcriptions` empty. Default: none (such a request gets a 500).
   * @example startFakeOpenAI({ transcribe: (upload) => `heard ${upload.bytes.length} bytes` })
   */
  transcribe?: (upload: RecordedTranscription) => string;
  /**
   * The API key the fake requires: with one, every request without `Authorization: Bearer <apiKey>` gets the real
   * API's 401 (recorded, consuming nothing). Default: none, any key or none is accepted.
   */
  apiKey?: string;
}

/**
 * Starts a fake OpenAI API on 127.0.0.1 (port 0) serving `POST /v1/chat/completions` and
 * `POST /v1/responses` from one queue of scripts, `POST /v1/embeddings` (no script: `embed` answers it) and
 * `POST /v1/audio/transcriptions` (multipart; answered from `options.transcriptions`, then `transcribe`; what it read:
 * `transcriptionUploads(fake)`).
 * Contract: each request consumes one enqueued script, or plays `answerEvery` when none is queued; `url` already
 * ends in `/v1`, as
 * `new OpenAI({ baseURL: url })` expects.
 */
export function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeLlmServer> {
  const reasoningField = options.chatReasoningField ?? "none";
  const apiKey = options.apiKey;
  return startFakeLlmServer(
    {
      "/v1/chat/completions": {
        stream: (script, ctx) => encodeOpenAIChatStream(script, ctx, reasoningField),
        error: (fault) => openAIErrorResponse(fault, "chat"),
      },
      "/v1/responses": {
        stream: encodeOpenAIResponsesStream,
        error: (fault) => openAIErrorResponse(fault, "responses"),
      },
      "/v1/embeddings": openAIEmbeddingsRoute(options.embed ?? hashedWordEmbedding),
      "/v1/audio/transcriptions": openAITranscriptionsRoute(options.transcriptions ?? [], options.transcribe),
    },
    "/v1",
    { "x-request-id": "req_fake" },
    options.answerEvery,
    apiKey === undefined ? {} : { authorize: (request) => unauthorized(request.headers.authorization, apiKey) },
  );
}

/** The real API's 401 for a missing or wrong key; undefined for the right one. */
function unauthorized(header: string | undefined, apiKey: string): WireErrorResponse | undefined {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
  if (given === apiKey) return undefined;
  const message =
    given === undefined
      ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys."
      : `Incorrect API key provided: ${given.length > 8 ? `${given.slice(0, 3)}*****${given.slice(-4)}` : "*****"}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  return {
    status: 401,
    headers: { "x-request-id": "req_fake" },
    body: {
      error: {
        message,
        type: "invalid_request_error",
        param: null,
        code: given === undefined ? null : "invalid_api_key",
      },
    },
  };
}
