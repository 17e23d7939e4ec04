import { readFile, stat } from "node:fs/promises";
import { displayPath, resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { looksBinary } from "./binary-detect.js";
import { ToolInputError } from "./tool-input-error.js";

export interface ReadFileArgs {
  path: string;
  /** First line to return, 1-based. */
  offset?: number | undefined;
  /** How many lines to return. */
  limit?: number | undefined;
}

export interface ReadFileLimits {
  /** Files larger than this are refused (use grep or a range on a smaller file). Default 20 MiB. */
  maxFileBytes?: number;
  /** Lines returned when no limit is given. Default 2000. */
  defaultLineLimit?: number;
  /** Characters returned at most; the range is shortened at a line boundary to fit. Default 50 000. */
  maxChars?: number;
}

export interface ReadFileResult {
  text: string;
  firstLine: number;
  lastLine: number;
  totalLines: number;
}

/**
 * Reads a text file in the workspace, numbered `<line>\t<text>`.
 * Contract: refuses binary files and files over `maxFileBytes`; when the requested range does not
 * fit in `maxChars` it stops at a line boundary and says which offset to continue from.
 */
export async function readFileRange(
  workspace: Workspace,
  args: ReadFileArgs,
  limits: ReadFileLimits = {},
): Promise<ReadFileResult> {
  const maxFileBytes = limits.maxFileBytes ?? 20 * 1024 * 1024;
  const maxChars = limits.maxChars ?? 50_000;
  const abs = await resolveInWorkspace(workspace, args.path);
  const shown = displayPath(workspace, abs);
  const info = await stat(abs).catch(() => undefined);
  if (!info) throw new ToolInputError(`File not found: ${shown}`);
  if (info.isDirectory()) throw new ToolInputError(`${shown} is a directory; use list_dir instead.`);
  if (info.size > maxFileBytes) {
    throw new ToolInputError(
      `${shown} is ${info.size} bytes, over the ${maxFileBytes}-byte limit; use grep to find what you need.`,
    );
  }
  const bytes = await readFile(abs);
  if (looksBinary(bytes))
    throw new ToolInputError(`${shown} is a binary file (${bytes.length} bytes); it is not shown.`);
  const lines = bytes.toString("utf8").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const totalLines = lines.length;
  const firstLine = Math.max(1, args.offset ?? 1);
  if (totalLines === 0) return { text: `(${shown} is empty)`, firstLine: 0, lastLine: 0, totalLines };
  if (firstLine > totalLines)
    throw new ToolInputError(`offset ${firstLine} is past the end of ${shown} (${totalLines} lines).`);
  const wanted = Math.max(1, args.limit ?? limits.defaultLineLimit ?? 2000);
  const out: string[] = [];
  let used = 0;
  let lastLine = firstLine - 1;
  for (let n = firstLine; n <= Math.min(totalLines, firstLine + wanted - 1); n++) {
    const line = `${n}\t${lines[n - 1] ?? ""}`;
    if (used + line.length + 1 > maxChars && out.length > 0) break;
    out.push(line.length > maxChars ? `${line.slice(0, maxChars)} [line cut]` : line);
    used += line.length + 1;
    lastLine = n;
  }
  let text = out.join("\n");
  if (lastLine < totalLines) {
    text += `\n[showing lines ${firstLine}-${lastLine} of ${totalLines}; continue with offset=${lastLine + 1}]`;
  }
  return { text, firstLine, lastLine, totalLines };
}
