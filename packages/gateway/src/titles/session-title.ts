/** Longest title kept. */
export const MAX_TITLE_LENGTH = 60;

/**
 * A title made from the message itself: its first line, cut at a word boundary. Every session gets one from its
 * first message (a model-written one may replace it later: @chorus/extension-titles).
 * Contract: pure; never empty for a message with any non-space character ("Untitled" otherwise).
 */
export function titleFromText(text: string, maxLength = MAX_TITLE_LENGTH): string {
  const line = text.trim().split("\n", 1)[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (line === "") return "Untitled";
  if (line.length <= maxLength) return line;
  const cut = line.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > maxLength / 2 ? cut.slice(0, space) : cut}…`;
}
