import { MemoryError } from "./memory-errors.js";

/** The longest fact kept, in characters. A fact is one statement, not a document. */
export const MAX_FACT_CHARS = 500;

/** Shapes of keys and tokens a fact must never hold (they would be recalled into later prompts). */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/, // Anthropic / OpenAI keys
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/, // Slack tokens
  /\bxapp-[A-Za-z0-9-]{8,}/, // Slack app tokens
  /(?<!\d)\d{6,12}:[A-Za-z0-9_-]{30,}/, // Telegram bot tokens
  /\b[A-Za-z0-9_-]{24,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/, // Discord bot tokens
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/, // GitHub tokens
  /\bAIza[0-9A-Za-z_-]{30,}/, // Google API keys
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWTs
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/, // private keys
  /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/, // Authorization header values
  /\b(?:api[_-]?key|secret|token|password|passwd)\b\s*[:=]\s*\S{8,}/i, // key=value credentials
  /\b(?:password|passwd|passcode|passphrase)\b\s*(?:is|=|:)\s*\S+/i, // "my password is hunter2"
  /\bpin(?:\s*(?:code|number))?\b\s*(?:is|=|:)\s*\d{3,}/i, // "my pin is 4711"
  // AWS secret access keys: 40 characters of base64 after a name that says what they are.
  /\b(?:aws[_\s-]*)?secret[_\s-]*(?:access[_\s-]*)?key\b\W{0,5}(?:is\s+)?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/i,
  /\bA(?:KIA|SIA)[0-9A-Z]{16}\b/, // AWS access key ids (long-lived and temporary)
];

/** Does `text` hold something shaped like a key, token or password? */
export function looksLikeSecret(text: string): boolean {
  return SECRET_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * The fact's text, trimmed, or a `MemoryError`: empty (`fact_empty`), longer than `maxChars` (`fact_too_long`, the
 * message gives both lengths) or holding a secret (`fact_has_secret`; the message never repeats it).
 */
export function checkFactText(text: string, maxChars = MAX_FACT_CHARS): string {
  const trimmed = text.trim();
  if (trimmed === "") throw new MemoryError("fact_empty", "A fact needs some text.");
  if (trimmed.length > maxChars) {
    throw new MemoryError(
      "fact_too_long",
      `A fact is at most ${maxChars} characters; this one has ${trimmed.length}. State it shorter, one fact at a time.`,
    );
  }
  if (looksLikeSecret(trimmed)) {
    throw new MemoryError(
      "fact_has_secret",
      "That looks like a key, token or password; memory never keeps secrets. Nothing was saved.",
    );
  }
  return trimmed;
}
