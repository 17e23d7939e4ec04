/**
 * Parses a tool call's streamed arguments. Contract: "" is `{}`; anything that is not a JSON
 * object (malformed, truncated, an array or a scalar) is undefined.
 */
export function parseToolArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim().length === 0) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
