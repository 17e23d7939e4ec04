import { createHash } from "node:crypto";

/** The tool-call id rules of each API. */
const rules: Record<string, { pattern: RegExp; maxLength: number }> = {
  // Anthropic: ^[a-zA-Z0-9_-]+$
  "anthropic-messages": { pattern: /[^a-zA-Z0-9_-]/g, maxLength: 64 },
  // OpenAI Chat rejects ids longer than 40 characters.
  "openai-chat": { pattern: /[^a-zA-Z0-9_-]/g, maxLength: 40 },
  "openai-responses": { pattern: /[^a-zA-Z0-9_-]/g, maxLength: 64 },
};

/**
 * Rewrites a tool-call id so `api` accepts it. Contract: deterministic (a call and its result
 * map to the same id), identity for ids already valid, and distinct inputs stay distinct
 * (a hash suffix is added whenever characters are replaced or cut).
 */
export function normalizeToolCallId(id: string, api: string): string {
  const rule = rules[api];
  if (!rule) return id;
  const cleaned = id.replace(rule.pattern, "_");
  if (cleaned === id && id.length <= rule.maxLength && id.length > 0) return id;
  const hash = createHash("sha256").update(id).digest("hex").slice(0, 8);
  return `${cleaned.slice(0, rule.maxLength - hash.length - 1)}_${hash}`;
}
