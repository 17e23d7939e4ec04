import type { AnyAgentTool } from "@chorus/core";
import type { ExecOptions } from "../exec/exec-command.js";
import type { ReadFileLimits } from "../fs/read-file.js";
import type { WebFetchOptions } from "../web/web-fetch.js";
import { openWorkspace } from "../workspace/workspace-root.js";
import { currentTimeTool } from "./current-time-tool.js";
import { execTool } from "./exec-tool.js";
import { editFileTool, globTool, grepTool, listDirTool, readFileTool, writeFileTool } from "./fs-tools.js";
import { webFetchTool } from "./web-fetch-tool.js";

export interface BuiltinToolsOptions {
  /** The workspace folder every file and exec tool is confined to. Must exist. */
  workspaceRoot: string;
  read?: ReadFileLimits;
  exec?: Omit<ExecOptions, "signal">;
  web?: Omit<WebFetchOptions, "signal"> & { maxOutputChars?: number };
  clock?: () => Date;
}

/**
 * All built-in tools bound to one workspace: read_file, write_file, edit_file, list_dir, glob,
 * grep, exec, web_fetch, current_time.
 * Contract: every path argument is confined to `workspaceRoot`; pick a subset by name with
 * `.filter` or restrict per caller with a tool policy.
 */
export function createBuiltinTools(options: BuiltinToolsOptions): AnyAgentTool[] {
  const workspace = openWorkspace(options.workspaceRoot);
  return [
    readFileTool(workspace, options.read),
    writeFileTool(workspace),
    editFileTool(workspace),
    listDirTool(workspace),
    globTool(workspace),
    grepTool(workspace),
    execTool(workspace, options.exec),
    webFetchTool(workspace, options.web),
    currentTimeTool(options.clock),
  ] as AnyAgentTool[];
}
