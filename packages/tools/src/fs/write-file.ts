import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { displayPath, resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { ToolInputError } from "./tool-input-error.js";

export interface WriteFileArgs {
  path: string;
  content: string;
}

/**
 * Writes (creates or replaces) a UTF-8 file inside the workspace, creating parent folders.
 * Contract: returns a one-line summary; refuses directories and paths outside the workspace.
 */
export async function writeWorkspaceFile(workspace: Workspace, args: WriteFileArgs): Promise<string> {
  const abs = await resolveInWorkspace(workspace, args.path);
  const shown = displayPath(workspace, abs);
  const existing = await stat(abs).catch(() => undefined);
  if (existing?.isDirectory()) throw new ToolInputError(`${shown} is a directory; give a file path.`);
  await mkdir(dirname(abs), { recursive: true });
  // Re-check after mkdir: a parent created through a racing symlink must still be inside.
  await resolveInWorkspace(workspace, args.path);
  await writeFile(abs, args.content, "utf8");
  const bytes = Buffer.byteLength(args.content, "utf8");
  return `${existing ? "Replaced" : "Created"} ${shown} (${bytes} bytes).`;
}
