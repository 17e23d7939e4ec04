import { readFile, writeFile } from "node:fs/promises";
import { displayPath, resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { looksBinary } from "./binary-detect.js";
import { ToolInputError } from "./tool-input-error.js";

export interface EditFileArgs {
  path: string;
  oldString: string;
  newString: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean | undefined;
}

/**
 * Replaces an exact string in a workspace file.
 * Contract: without `replaceAll` the old string must occur exactly once, otherwise a
 * ToolInputError states how many times it occurs; the file is untouched on any error.
 */
export async function editWorkspaceFile(workspace: Workspace, args: EditFileArgs): Promise<string> {
  if (args.oldString.length === 0) throw new ToolInputError("old_string is empty; give the exact text to replace.");
  if (args.oldString === args.newString) throw new ToolInputError("old_string and new_string are the same.");
  const abs = await resolveInWorkspace(workspace, args.path);
  const shown = displayPath(workspace, abs);
  const bytes = await readFile(abs).catch(() => undefined);
  if (!bytes) throw new ToolInputError(`File not found: ${shown}`);
  if (looksBinary(bytes)) throw new ToolInputError(`${shown} is a binary file; it cannot be edited as text.`);
  const text = bytes.toString("utf8");
  const count = countOccurrences(text, args.oldString);
  if (count === 0)
    throw new ToolInputError(`old_string was not found in ${shown}; read the file and copy the text exactly.`);
  if (count > 1 && !args.replaceAll) {
    throw new ToolInputError(
      `old_string occurs ${count} times in ${shown}; include more surrounding text so it is unique, or set replace_all.`,
    );
  }
  const updated = args.replaceAll
    ? text.split(args.oldString).join(args.newString)
    : text.replace(args.oldString, () => args.newString);
  await writeFile(abs, updated, "utf8");
  return `Edited ${shown}: ${count} replacement${count === 1 ? "" : "s"}.`;
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}
