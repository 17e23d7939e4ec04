import { glob } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { ToolInputError } from "./tool-input-error.js";

export interface GlobArgs {
  pattern: string;
  /** Folder to search from, relative to the workspace root. */
  path?: string | undefined;
}

/** Folders skipped unless the pattern names them. */
export const DEFAULT_SKIPPED_DIRS = [".git", "node_modules"];

/**
 * Finds workspace paths matching a glob (`**` for any depth). Symlinks are not followed.
 * Contract: patterns with `..` segments or absolute patterns are refused; at most `maxResults`
 * sorted paths relative to the search folder, with a note giving the total when there are more.
 */
export async function globWorkspace(workspace: Workspace, args: GlobArgs, maxResults = 1000): Promise<string> {
  if (isAbsolute(args.pattern) || args.pattern.split(/[\\/]/).includes("..")) {
    throw new ToolInputError(
      `Pattern "${args.pattern}" must be relative to the search folder and may not contain "..".`,
    );
  }
  const base = await resolveInWorkspace(workspace, args.path ?? ".");
  const skip = DEFAULT_SKIPPED_DIRS.filter((dir) => !args.pattern.includes(dir));
  const matches: string[] = [];
  for await (const entry of glob(args.pattern, { cwd: base, exclude: skip.map((dir) => `**/${dir}`) })) {
    // Belt and braces: a match reached through a symlinked folder must still be inside the root.
    try {
      await resolveInWorkspace(workspace, relative(workspace.root, join(base, entry)) || ".");
    } catch {
      continue;
    }
    matches.push(entry.split("\\").join("/"));
  }
  matches.sort();
  if (matches.length === 0) return `No paths match ${args.pattern}.`;
  const more =
    matches.length > maxResults ? `\n[${matches.length - maxResults} more matches not shown of ${matches.length}]` : "";
  return matches.slice(0, maxResults).join("\n") + more;
}
