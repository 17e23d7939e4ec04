import { realpathSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { WorkspaceEscapeError } from "./workspace-errors.js";

/** A workspace directory every file tool is confined to. */
export interface Workspace {
  /** The real (symlink-free) absolute path of the root. */
  readonly root: string;
  /**
   * When this workspace is a folder of a bigger one (a confined read, see readableView): that folder's path in the
   * bigger one, so paths are shown to the model as it wrote them (`public/a.txt`, not `a.txt`).
   */
  readonly shownAs?: string;
}

/**
 * Opens a workspace at `root`. Contract: the directory must exist; its realpath becomes the
 * root so that a symlinked root (e.g. /tmp on macOS) still confines correctly.
 */
export function openWorkspace(root: string): Workspace {
  return { root: realpathSync(root) };
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Resolves a model-supplied path inside the workspace.
 * Contract: returns an absolute path whose real location is inside the root, or throws
 * WorkspaceEscapeError for absolute paths, `..` escapes and symlinks pointing outside. For a path
 * that does not exist yet, its deepest existing ancestor is checked instead.
 */
export async function resolveInWorkspace(workspace: Workspace, requested: string): Promise<string> {
  if (requested.includes("\0")) throw new WorkspaceEscapeError(requested, "the path contains a NUL byte");
  if (isAbsolute(requested)) throw new WorkspaceEscapeError(requested, "absolute paths are not allowed");
  const lexical = resolve(workspace.root, requested);
  if (!isInside(workspace.root, lexical)) throw new WorkspaceEscapeError(requested, "it climbs above the root with ..");
  const real = await realpathOfDeepestExisting(lexical);
  if (!isInside(workspace.root, real)) {
    throw new WorkspaceEscapeError(requested, "it goes through a symlink that points outside the root");
  }
  return lexical;
}

/** The realpath of `path`, or of its deepest existing ancestor joined with the missing tail. */
async function realpathOfDeepestExisting(path: string): Promise<string> {
  let current = path;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // A dangling symlink: refuse to follow it anywhere we cannot see.
      const link = await lstat(current).catch(() => undefined);
      if (link?.isSymbolicLink()) return resolve("/", "dangling-symlink-outside");
      const parent = dirname(current);
      if (parent === current) return current;
      missing.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}

/** The path of `absolute` relative to the workspace root (under `shownAs` when set), with forward slashes. */
export function displayPath(workspace: Workspace, absolute: string): string {
  const rel = relative(workspace.root, absolute).split(sep).join("/");
  if (workspace.shownAs !== undefined) return rel === "" ? workspace.shownAs : `${workspace.shownAs}/${rel}`;
  return rel === "" ? "." : rel;
}
