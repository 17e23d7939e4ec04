/** The wire protocols this package speaks. Contract: a Model's `api` must be one of these to be served. */
export const API = {
  anthropic: "anthropic-messages",
  openaiChat: "openai-chat",
  openaiResponses: "openai-responses",
  scripted: "scripted",
} as const;

export type ApiName = (typeof API)[keyof typeof API];
