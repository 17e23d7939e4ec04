import type { Embedder } from "./embedder.js";

/** Where an OpenAI-compatible embeddings API is (OpenAI, Ollama, vLLM, LM Studio, llama.cpp server …). */
export interface OpenAiEmbedderOptions {
  /** The API base, ending in `/v1` (e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`). */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Ask for shorter vectors (models that support it). */
  readonly dimensions?: number;
  /** Per request (default 10 s). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** An embeddings request the server refused or answered with something else than vectors. */
export class EmbeddingError extends Error {
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.name = "EmbeddingError";
    this.status = status;
  }
}

/**
 * An `Embedder` over `POST {baseUrl}/embeddings`. Contract: one request per call, vectors returned in input order
 * (by the answer's `index`); an HTTP error or a malformed answer rejects with `EmbeddingError` (its message carries
 * the server's message, never the API key).
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  return async (texts, signal) => {
    if (texts.length === 0) return [];
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
    const response = await doFetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
      },
      body: JSON.stringify({
        model: options.model,
        input: texts,
        encoding_format: "float",
        ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
      }),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    const body = (await response.json().catch(() => undefined)) as
      | { data?: { index?: number; embedding?: unknown }[]; error?: { message?: string } }
      | undefined;
    if (!response.ok) {
      throw new EmbeddingError(
        `embeddings request failed (${response.status}): ${body?.error?.message ?? response.statusText}`,
        response.status,
      );
    }
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw new EmbeddingError(`embeddings answer has ${data?.length ?? "no"} vectors for ${texts.length} inputs`);
    }
    const vectors = new Array<Float32Array>(texts.length);
    for (const [position, item] of data.entries()) {
      if (!Array.isArray(item.embedding))
        throw new EmbeddingError("embeddings answer holds a vector that is not a list");
      vectors[item.index ?? position] = Float32Array.from(item.embedding as number[]);
    }
    return vectors;
  };
}
