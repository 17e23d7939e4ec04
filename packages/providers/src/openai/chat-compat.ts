/**
 * How one Chat Completions server differs from OpenAI's own. OpenAI-compatible servers
 * accept most of the API but disagree on these points.
 */
export interface ChatCompat {
  /** Which field limits the answer's length. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** The role of the system prompt ("developer" for OpenAI's reasoning models). */
  systemRole: "system" | "developer";
  /** Where the server streams reasoning, if it does. */
  reasoningField: "reasoning_content" | "reasoning" | null;
  /** Whether `stream_options: { include_usage: true }` is understood. */
  streamUsage: boolean;
  /** Whether `reasoning_effort` is understood. */
  reasoningEffort: boolean;
  /** Whether the server needs an API key at all (local servers do not). */
  needsApiKey: boolean;
}

/** The known servers, by provider name. Contract: read-only data; see the README table. */
export const chatCompatTable = {
  openai: {
    maxTokensField: "max_completion_tokens",
    systemRole: "developer",
    reasoningField: null,
    streamUsage: true,
    reasoningEffort: true,
    needsApiKey: true,
  },
  ollama: {
    maxTokensField: "max_tokens",
    systemRole: "system",
    reasoningField: "reasoning",
    streamUsage: true,
    reasoningEffort: false,
    needsApiKey: false,
  },
  vllm: {
    maxTokensField: "max_tokens",
    systemRole: "system",
    reasoningField: "reasoning_content",
    streamUsage: true,
    reasoningEffort: false,
    needsApiKey: false,
  },
  lmstudio: {
    maxTokensField: "max_tokens",
    systemRole: "system",
    reasoningField: "reasoning_content",
    streamUsage: true,
    reasoningEffort: false,
    needsApiKey: false,
  },
  openrouter: {
    maxTokensField: "max_tokens",
    systemRole: "system",
    reasoningField: "reasoning",
    streamUsage: true,
    reasoningEffort: true,
    needsApiKey: true,
  },
} as const satisfies Record<string, ChatCompat>;

/** A server name from the table. */
export type KnownChatServer = keyof typeof chatCompatTable;

/** The safest settings for an unknown server. */
export const genericChatCompat: ChatCompat = {
  maxTokensField: "max_tokens",
  systemRole: "system",
  reasoningField: "reasoning_content",
  streamUsage: true,
  reasoningEffort: false,
  needsApiKey: false,
};

/**
 * The compat settings for a server name, with overrides applied.
 * Contract: an unknown or absent name gets `genericChatCompat`; returns a fresh object.
 */
export function resolveChatCompat(server: string | undefined, overrides: Partial<ChatCompat> = {}): ChatCompat {
  const known = server && server in chatCompatTable ? chatCompatTable[server as KnownChatServer] : genericChatCompat;
  return { ...known, ...overrides };
}
