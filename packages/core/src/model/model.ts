/** Prices in US dollars per million tokens. */
export interface ModelPricing {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelCapabilities {
  tools: boolean;
  thinking: boolean;
  images: boolean;
  /** Reads PDF documents itself (`DocumentContent`); absent or false: give it the extracted text instead. */
  documents?: boolean;
}

/**
 * A model a StreamFn can call. `api` selects the wire protocol; `provider` names who
 * serves it (two providers may share an api, e.g. openai-compatible servers).
 */
export interface Model {
  id: string;
  name?: string;
  provider: string;
  api: string;
  /** Override of the provider's base URL (e.g. a local Ollama). */
  baseUrl?: string;
  contextWindow: number;
  maxOutput: number;
  cost: ModelPricing;
  capabilities: ModelCapabilities;
}
