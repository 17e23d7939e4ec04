import type { ToolRunInfo } from "@chorus/core";
import { type SessionOutputs, saveSessionOutput } from "./session-outputs.js";

/**
 * Where earlier versions kept full copies of cut outputs, inside the workspace (readable by anyone who could read
 * the workspace). Hosts move this folder out of their workspaces; nothing writes there any more.
 */
export const LEGACY_OUTPUTS_DIR = ".chorus/outputs";

/** The result of fitting an output into a budget. */
export interface FittedOutput {
  text: string;
  /** Set when the output was cut: the handle of the full copy (for read_file) and how much was cut. */
  spill?: { path: string; totalChars: number; cutChars: number; totalLines: number };
}

/**
 * Fits `text` into `maxChars`, keeping the head and the tail (seed 002, TACO's intent without a
 * model call). Contract: text at or under the budget is returned unchanged; longer text is cut in
 * the middle with a note naming how much was cut, and the full text is saved for the session of
 * `run` (see saveSessionOutput) under a handle that read_file pages through, from that session only.
 */
export async function fitOutput(
  outputs: SessionOutputs,
  run: ToolRunInfo,
  text: string,
  maxChars: number,
): Promise<FittedOutput> {
  if (text.length <= maxChars) return { text };
  const handle = await saveSessionOutput(outputs, run, text);
  const headChars = Math.floor(maxChars * 0.6);
  const tailChars = maxChars - headChars;
  const head = text.slice(0, headChars);
  const tail = text.slice(text.length - tailChars);
  const cutChars = text.length - headChars - tailChars;
  const totalLines = countLines(text);
  const note =
    `\n\n[... ${cutChars} of ${text.length} characters cut (${totalLines} lines in all). ` +
    `The full output is saved as ${handle}; read it with read_file (path "${handle}") using offset and limit ...]\n\n`;
  return { text: head + note + tail, spill: { path: handle, totalChars: text.length, cutChars, totalLines } };
}

/** Number of lines, counting a last line without a trailing newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}
