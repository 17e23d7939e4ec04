/** Secret shapes worth catching even when nobody told us the value. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{8,}/g, // Anthropic / OpenAI keys
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/g, // Slack bot / user tokens
  /\bxapp-[A-Za-z0-9-]{8,}/g, // Slack app tokens
  /(?<!\d)\d{6,12}:[A-Za-z0-9_-]{30,}/g, // Telegram bot tokens (also inside /bot<token>/ URLs)
  /\b[A-Za-z0-9_-]{24,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}/g, // Discord bot tokens
  /(Bearer|Bot)\s+[A-Za-z0-9._~+/=-]{8,}/g, // Authorization header values
];

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/**
 * Replaces known secret values and anything shaped like a key or token in a string.
 * Contract: pure; secrets shorter than 6 characters are ignored (they would match ordinary words).
 */
export function scrubSecrets(text: string, knownSecrets: readonly string[]): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (_match, scheme: unknown) =>
      typeof scheme === "string" && (scheme === "Bearer" || scheme === "Bot") ? `${scheme} ${REDACTED}` : REDACTED,
    );
  }
  return out;
}
