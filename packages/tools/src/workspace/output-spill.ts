import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Workspace } from "./workspace-root.js";

/** Where full copies of cut outputs are kept, relative to the workspace root. */
export const OUTPUTS_DIR = ".chorus/outputs";

/** The result of fitting an output into a budget. */
export interface FittedOutput {
  text: string;
  /** Set when the output was cut: where the full copy lives (workspace-relative) and how much was cut. */
  spill?: { path: string; totalChars: number; cutChars: number; totalLines: number };
}

/**
 * Fits `text` into `maxChars`, keeping the head and the tail (seed 002, TACO's intent without a
 * model call). Contract: text at or under the budget is returned unchanged; longer text is cut in
 * the middle with a note naming how much was cut, and the full text is written to
 * `.chorus/outputs/<id>.txt` inside the workspace so that read_file can page through it.
 */
export async function fitOutput(workspace: Workspace, text: string, maxChars: number): Promise<FittedOutput> {
  if (text.length <= maxChars) return { text };
  const relPath = await saveFullOutput(workspace, text);
  const headChars = Math.floor(maxChars * 0.6);
  const tailChars = maxChars - headChars;
  const head = text.slice(0, headChars);
  const tail = text.slice(text.length - tailChars);
  const cutChars = text.length - headChars - tailChars;
  const totalLines = countLines(text);
  const note =
    `\n\n[... ${cutChars} of ${text.length} characters cut (${totalLines} lines in all). ` +
    `The full output is saved at ${relPath}; read it with read_file using offset and limit ...]\n\n`;
  return { text: head + note + tail, spill: { path: relPath, totalChars: text.length, cutChars, totalLines } };
}

/**
 * Writes `text` to a new file under `.chorus/outputs/`.
 * Contract: returns its workspace-relative path; the name is a fresh random id.
 */
export async function saveFullOutput(workspace: Workspace, text: string): Promise<string> {
  const relPath = `${OUTPUTS_DIR}/${randomUUID()}.txt`;
  await mkdir(join(workspace.root, OUTPUTS_DIR), { recursive: true });
  await writeFile(join(workspace.root, relPath), text, "utf8");
  return relPath;
}

/** Number of lines, counting a last line without a trailing newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}
