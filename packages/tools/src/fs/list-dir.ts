import { readdir } from "node:fs/promises";
import { displayPath, resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { ToolInputError } from "./tool-input-error.js";

export interface ListDirArgs {
  path?: string | undefined;
}

/**
 * Lists one folder of the workspace: folders first (with a trailing "/"), then files, sorted.
 * Contract: at most `maxEntries` names, with a note giving the total when more exist.
 */
export async function listWorkspaceDir(workspace: Workspace, args: ListDirArgs, maxEntries = 1000): Promise<string> {
  const abs = await resolveInWorkspace(workspace, args.path ?? ".");
  const shown = displayPath(workspace, abs);
  const entries = await readdir(abs, { withFileTypes: true }).catch((error: unknown) => {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    if (code === "ENOTDIR") throw new ToolInputError(`${shown} is a file, not a folder; use read_file.`);
    throw new ToolInputError(`Folder not found: ${shown}`);
  });
  const names = entries
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name))
    .sort((a, b) => Number(b.endsWith("/")) - Number(a.endsWith("/")) || a.localeCompare(b));
  if (names.length === 0) return `(${shown} is empty)`;
  const shownNames = names.slice(0, maxEntries);
  const more =
    names.length > maxEntries ? `\n[${names.length - maxEntries} more entries not shown of ${names.length}]` : "";
  return shownNames.join("\n") + more;
}
