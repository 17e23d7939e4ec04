import type { FakeJsonRoute, RecordedLlmRequest } from "./fake-llm-server.js";

/** Turns one input text into its vector (deterministic, so tests can predict similarities). */
export type FakeEmbedFunction = (text: string) => readonly number[];

/**
 * The default fake embedding: 64 dimensions, each word (lower case, letters and digits) hashed into one of them and
 * the vector normalised — texts sharing words are similar, others nearly orthogonal.
 */
export function hashedWordEmbedding(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    const slot = (hash >>> 0) % 64;
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/**
 * `POST /v1/embeddings` as OpenAI answers it: `input` a string or an array of strings, `encoding_format` `float`
 * or `base64` (little-endian float32, what the official SDK asks for by default). A missing or empty input is a 400.
 */
export function openAIEmbeddingsRoute(embed: FakeEmbedFunction): FakeJsonRoute {
  return {
    json(request: RecordedLlmRequest) {
      const input = request.body.input;
      const texts = typeof input === "string" ? [input] : Array.isArray(input) ? input : [];
      if (texts.length === 0 || texts.some((text) => typeof text !== "string" || text === "")) {
        return {
          status: 400,
          body: {
            error: { message: "'input' must be a non-empty string or array of strings", type: "invalid_request_error" },
          },
        };
      }
      const base64 = request.body.encoding_format === "base64";
      const data = (texts as string[]).map((text, index) => {
        const vector = embed(text);
        const embedding = base64 ? Buffer.from(Float32Array.from(vector).buffer).toString("base64") : [...vector];
        return { object: "embedding", index, embedding };
      });
      const tokens = (texts as string[]).reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
      return {
        status: 200,
        body: {
          object: "list",
          data,
          model: typeof request.body.model === "string" ? request.body.model : "fake-embedding",
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        },
      };
    },
  };
}
