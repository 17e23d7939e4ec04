import { type FakeLlmScriptSource, type FakeLlmServer, startFakeLlmServer } from "./fake-llm-server.js";
import { type ChatReasoningField, encodeOpenAIChatStream } from "./openai-chat-wire.js";
import { type FakeEmbedFunction, hashedWordEmbedding, openAIEmbeddingsRoute } from "./openai-embeddings-wire.js";
import { openAIErrorResponse } from "./openai-errors.js";
import { encodeOpenAIResponsesStream } from "./openai-responses-wire.js";

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
}

/**
 * Starts a fake OpenAI API on 127.0.0.1 (port 0) serving `POST /v1/chat/completions` and
 * `POST /v1/responses` from one queue of scripts, and `POST /v1/embeddings` (no script: `embed` answers it).
 * Contract: each request consumes one enqueued script, or plays `answerEvery` when none is queued; `url` already
 * ends in `/v1`, as
 * `new OpenAI({ baseURL: url })` expects.
 */
export function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeLlmServer> {
  const reasoningField = options.chatReasoningField ?? "none";
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
    },
    "/v1",
    { "x-request-id": "req_fake" },
    options.answerEvery,
  );
}
