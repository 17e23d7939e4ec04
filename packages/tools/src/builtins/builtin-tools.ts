import type { AnyAgentTool } from "@chorus/core";
import type { ExecOptions } from "../exec/exec-command.js";
import type { RecentFileReads } from "../execution/recent-file-reads.js";
import type { WorkingDirectories } from "../execution/working-directories.js";
import type { ReadFileLimits } from "../fs/read-file.js";
import type { WebFetchOptions } from "../web/web-fetch.js";
import { confineGuestsTo } from "../workspace/read-confinement.js";
import { defaultSessionOutputs, type SessionOutputs } from "../workspace/session-outputs.js";
import { openWorkspace } from "../workspace/workspace-root.js";
import { currentTimeTool } from "./current-time-tool.js";
import { execTool } from "./exec-tool.js";
import { editFileTool, globTool, grepTool, listDirTool, readFileTool, writeFileTool } from "./fs-tools.js";
import { setWorkingDirectoryTool } from "./set-working-directory-tool.js";
import { webFetchTool } from "./web-fetch-tool.js";

export interface BuiltinToolsOptions {
  /** The workspace folder every file and exec tool is confined to. Must exist. */
  workspaceRoot: string;
  read?: ReadFileLimits;
  exec?: Omit<ExecOptions, "signal">;
  web?: Omit<WebFetchOptions, "signal"> & { maxOutputChars?: number };
  clock?: () => Date;
  /**
   * Where cut outputs of exec, grep and web_fetch are kept, per session, outside the workspace; read_file reads them
   * back by handle from the same session only. Default: defaultSessionOutputs() (a private temp folder).
   */
  outputs?: SessionOutputs;
  /**
   * The folders (workspace-relative) a guest-tier caller may read; guests read nothing else, saved outputs
   * included. Unset: read calls are not confined by tier (the tool policy decides who may call them at all).
   */
  guestReadFolders?: readonly string[];
  /**
   * Per-session working directories (seed 002 "Per-Turn ExecutionContext"): adds set_working_directory. Give the same
   * object's `source` to the loop as `executionContext` so exec runs in the directory fixed at the turn's start.
   */
  workingDirectories?: WorkingDirectories;
  /**
   * Remembers what read_file read per session (seed 004 "Context Restoration"); give its `source` to the loop as
   * `context.restoration.recentFiles` to re-attach those files after a compaction.
   */
  recentReads?: RecentFileReads;
}

/**
 * All built-in tools bound to one workspace: read_file, write_file, edit_file, list_dir, glob,
 * grep, exec, web_fetch, current_time (and set_working_directory when `workingDirectories` is given).
 * Contract: every path argument is confined to `workspaceRoot` (and a guest's reads to `guestReadFolders` when
 * given); saved outputs are readable only from the session that made them. Pick a subset by name with `.filter` or
 * restrict per caller with a tool policy.
 * @example createBuiltinTools({ workspaceRoot: "./ws", outputs: openSessionOutputs({ root: "./outputs" }) })
 */
export function createBuiltinTools(options: BuiltinToolsOptions): AnyAgentTool[] {
  const workspace = openWorkspace(options.workspaceRoot);
  const outputs = options.outputs ?? defaultSessionOutputs();
  const access =
    options.guestReadFolders === undefined
      ? { outputs }
      : { outputs, confine: confineGuestsTo(options.guestReadFolders) };
  return [
    readFileTool(workspace, options.read, access, options.recentReads),
    writeFileTool(workspace),
    editFileTool(workspace),
    listDirTool(workspace, access),
    globTool(workspace, access),
    grepTool(workspace, undefined, access),
    execTool(workspace, options.exec, outputs),
    webFetchTool(options.web, outputs),
    currentTimeTool(options.clock),
    ...(options.workingDirectories === undefined
      ? []
      : [setWorkingDirectoryTool(workspace, options.workingDirectories)]),
  ] as AnyAgentTool[];
}
