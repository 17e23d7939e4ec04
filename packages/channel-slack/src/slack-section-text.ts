/** Slack's limit on a section block's text; a message chunk (3 500) can exceed it. */
export const MAX_SECTION_TEXT = 3000;

const FENCE = "```";
// Room kept in each part for closing a code block that continues in the next part.
const CLOSE = `\n${FENCE}`;

/**
 * Mrkdwn text as the texts of consecutive section blocks, each within `max` characters: split at line ends where it
 * can, inside a line only when the line alone is too long; a ``` code block cut in two is closed at the end of one
 * part and reopened at the start of the next, so both still render as code.
 * Contract: no part is empty or longer than `max`; joined with "\n" they read as the text (plus any fences added).
 */
export function sectionTexts(text: string, max = MAX_SECTION_TEXT): string[] {
  const parts: string[] = [];
  let part = "";
  let inFence = false;
  const flush = (): void => {
    if (part.length === 0) return;
    parts.push(inFence ? `${part}${CLOSE}` : part);
    part = inFence ? FENCE : "";
  };
  for (const line of text.split("\n")) {
    const isFence = line.trimEnd() === FENCE;
    // Inside a code block (and on the line opening one) a part keeps room to close it; the closing line needs none.
    const reserve = inFence !== isFence ? CLOSE.length : 0;
    for (const piece of piecesOf(line, max - CLOSE.length - FENCE.length - 1)) {
      if (part.length > 0 && part.length + 1 + piece.length + reserve > max) flush();
      part = part.length === 0 ? piece : `${part}\n${piece}`;
    }
    if (isFence) inFence = !inFence;
  }
  if (part.length > 0 && part !== FENCE) parts.push(part);
  return parts.filter((p) => p.trim().length > 0);
}

/** A line in pieces of at most `size` characters, never cutting a surrogate pair. */
function piecesOf(line: string, size: number): string[] {
  if (line.length <= size) return [line];
  const pieces: string[] = [];
  let start = 0;
  while (start < line.length) {
    let end = Math.min(start + size, line.length);
    const code = line.charCodeAt(end - 1);
    if (end < line.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
    pieces.push(line.slice(start, end));
    start = end;
  }
  return pieces;
}
