const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})[ \t]*(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** An opening code fence line: its indentation, marker (``` or ~~~, possibly longer) and language. */
export interface CodeFence {
  readonly indent: number;
  readonly marker: string;
  readonly language: string | undefined;
}

/** Reads a line as an opening code fence. Contract: undefined when the line does not open one. */
export function parseFenceOpen(line: string): CodeFence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (match === null) return undefined;
  const marker = match[2]!;
  const info = match[3]!.trim();
  if (marker.startsWith("`") && info.includes("`")) return undefined;
  const language = info.split(/\s+/)[0];
  return { indent: match[1]!.length, marker, language: language === "" ? undefined : language };
}

/** Whether a line closes the fence opened with `marker` (same character, at least as long). */
export function closesFence(line: string, marker: string): boolean {
  const match = FENCE_CLOSE.exec(line);
  return match !== null && match[1]![0] === marker[0] && match[1]!.length >= marker.length;
}

/**
 * Which fence is still open after `lines`, given the fence open before them.
 * Contract: undefined when the lines end outside any code block.
 */
export function fenceOpenAfter(lines: readonly string[], openBefore: CodeFence | undefined): CodeFence | undefined {
  let open = openBefore;
  for (const line of lines) {
    if (open !== undefined) {
      if (closesFence(line, open.marker)) open = undefined;
    } else {
      open = parseFenceOpen(line);
    }
  }
  return open;
}
