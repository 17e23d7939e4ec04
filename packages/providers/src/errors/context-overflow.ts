/**
 * The wording each server uses when a request does not fit the model's context window.
 * Kept as data so a new server's phrasing is one line.
 */
const overflowPatterns: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  /input length and `?max_tokens`? exceed context limit/i, // Anthropic, with max_tokens
  /maximum context length/i, // OpenAI Chat, vLLM, OpenRouter ("This endpoint's maximum context length")
  /exceeds the context window/i, // OpenAI Responses
  /context_length_exceeded/i, // OpenAI error code
  /context length exceeded/i, // LM Studio
  /greater than the context length/i, // LM Studio / llama.cpp "tokens to keep … greater than the context length"
  /exceeds the available context size/i, // llama.cpp server
  /too many tokens/i,
  /reduce the length of the (messages|input|prompt)/i,
];

/**
 * Whether an error message (or code) says the request overflowed the context window.
 * Contract: pure; false for undefined or empty text; knows Anthropic, OpenAI, vLLM, llama.cpp, LM Studio, OpenRouter.
 */
export function isContextOverflowText(text: string | undefined): boolean {
  if (!text) return false;
  return overflowPatterns.some((pattern) => pattern.test(text));
}
