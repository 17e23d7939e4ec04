import { relative } from "node:path";
import type { ToolRunInfo } from "@chorus/core";
import { ToolInputError } from "../fs/tool-input-error.js";
import { parseTrustTier } from "../policy/trust-tiers.js";
import { WorkspaceEscapeError } from "./workspace-errors.js";
import { displayPath, openWorkspace, resolveInWorkspace, type Workspace } from "./workspace-root.js";

/**
 * Which folders of the workspace (relative paths) the caller of one call may read, or undefined for the whole
 * workspace. Decided per call from the run, so one set of tools serves every tier.
 */
export type ReadConfinement = (run: ToolRunInfo) => readonly string[] | undefined;

/**
 * A confinement for guests: a call whose `run.meta.trustTier` is guest (or missing: fail closed) may read only inside
 * `folders`; owner and trusted callers read the whole workspace.
 * Contract: pure; an empty list leaves guests nothing to read.
 * @example readFileTool(workspace, {}, { confine: confineGuestsTo(["public"]) })
 */
export function confineGuestsTo(folders: readonly string[]): ReadConfinement {
  return (run) => (parseTrustTier(run.meta?.trustTier) === "guest" ? folders : undefined);
}

/** Where a read should look: the workspace to confine it to, and the path inside that workspace. */
export interface ReadView {
  readonly workspace: Workspace;
  readonly path: string;
}

/**
 * The view of a read limited to `folders`: the folder holding `requested` becomes the workspace, so every existing
 * escape check (`..`, absolute paths, symlinks, glob and grep walks) applies against that folder, not the whole root.
 * Contract: `folders` undefined returns the workspace unchanged; otherwise throws WorkspaceEscapeError or
 * ToolInputError (naming the readable folders) when `requested` is not inside one of them. A folder that does not
 * exist, or is a symlink leaving the workspace, is skipped.
 */
export async function readableView(
  workspace: Workspace,
  folders: readonly string[] | undefined,
  requested: string,
): Promise<ReadView> {
  if (folders === undefined) return { workspace, path: requested };
  if (folders.length === 0) throw new ToolInputError("Reading files is not available to you here.");
  const lexical = await resolveInWorkspace(workspace, requested);
  for (const folder of folders) {
    const folderPath = await resolveInWorkspace(workspace, folder).catch(() => undefined);
    if (folderPath === undefined) continue;
    let inner: Workspace;
    try {
      inner = { ...openWorkspace(folderPath), shownAs: displayPath(workspace, folderPath) };
    } catch {
      continue;
    }
    // The workspace's own check, against the folder: `..` out of it and symlinks leading out of it are refused.
    const relativePath = relative(folderPath, lexical) || ".";
    const inside = await resolveInWorkspace(inner, relativePath).then(
      () => true,
      (error: unknown) => {
        if (error instanceof WorkspaceEscapeError) return false;
        throw error;
      },
    );
    if (inside) return { workspace: inner, path: relativePath };
  }
  const names = folders.map((folder) => `${folder.replace(/\/+$/, "")}/`).join(", ");
  throw new ToolInputError(`You may read only inside ${names}; "${requested}" is outside. Pass a path inside it.`);
}
