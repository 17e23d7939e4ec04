import { basename, dirname } from "node:path";
import { defineTool, type ToolRunInfo } from "@chorus/core";
import { z } from "zod";
import type { RecentFileReads } from "../execution/recent-file-reads.js";
import { editWorkspaceFile } from "../fs/edit-file.js";
import { globWorkspace } from "../fs/glob-files.js";
import { grepWorkspace } from "../fs/grep-files.js";
import { listWorkspaceDir } from "../fs/list-dir.js";
import { type ReadFileLimits, readFileRange } from "../fs/read-file.js";
import { writeWorkspaceFile } from "../fs/write-file.js";
import { textOutput } from "../tool-results/text-results.js";
import { fitOutput } from "../workspace/output-spill.js";
import { type ReadConfinement, readableView } from "../workspace/read-confinement.js";
import {
  defaultSessionOutputs,
  isOutputHandle,
  resolveOutputHandle,
  type SessionOutputs,
} from "../workspace/session-outputs.js";
import { openWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { runSafely } from "./run-safely.js";

const pathField = z.string().min(1).describe("Path relative to the workspace root, e.g. src/index.ts");

/** Who may read what through the read tools, and where saved outputs live. */
export interface ReadToolAccess {
  /** Saved tool outputs (read_file reads them by handle; grep saves long results). Default: defaultSessionOutputs(). */
  outputs?: SessionOutputs;
  /** Per call, the folders the caller may read (e.g. confineGuestsTo(["public"])). Default: the whole workspace. */
  confine?: ReadConfinement;
}

/**
 * read_file: a text file by line range, numbered, or a saved output by its handle (`output:<id>.txt`, from the
 * calling session only). Concurrency-safe.
 */
export function readFileTool(
  workspace: Workspace,
  limits: ReadFileLimits = {},
  access: ReadToolAccess = {},
  recentReads?: RecentFileReads,
) {
  const outputs = access.outputs ?? defaultSessionOutputs();
  return defineTool({
    name: "read_file",
    description:
      "Read a text file in the workspace. Lines come back numbered as '<line>\\t<text>'. For long files pass offset " +
      "(first line, 1-based) and limit (number of lines); the reply says where to continue. Binary files are refused. " +
      "A cut tool output is read the same way by the handle its note names (path: output:<id>.txt).",
    parameters: z.object({
      path: pathField,
      offset: z.number().int().min(1).optional().describe("First line to read, 1-based"),
      limit: z.number().int().min(1).optional().describe("Number of lines to read"),
    }),
    category: "info",
    concurrencySafe: true,
    execute: (args, ctx) =>
      runSafely(async () => {
        const view = await readableView(workspace, access.confine?.(ctx.run), args.path);
        const savedOutput = view.workspace === workspace && isOutputHandle(args.path);
        const result = savedOutput
          ? await readSavedOutput(outputs, ctx.run, args, limits)
          : await readFileRange(view.workspace, { ...args, path: view.path }, limits);
        if (recentReads !== undefined && !savedOutput) {
          // What is re-attached after a compaction is the file's start, as a plain read shows it.
          const read = async () => (await readFileRange(view.workspace, { path: view.path }, limits)).text;
          recentReads.record(ctx.run.sessionId, { path: args.path, toolCallId: ctx.toolCallId, read });
        }
        return textOutput(result.text, {
          firstLine: result.firstLine,
          lastLine: result.lastLine,
          totalLines: result.totalLines,
        });
      }),
  });
}

/** A saved output, read with the same ranges and limits as a file, from its own folder. */
async function readSavedOutput(
  outputs: SessionOutputs,
  run: ToolRunInfo,
  args: { path: string; offset?: number | undefined; limit?: number | undefined },
  limits: ReadFileLimits,
) {
  const file = await resolveOutputHandle(outputs, run, args.path);
  return readFileRange(openWorkspace(dirname(file)), { ...args, path: basename(file) }, limits);
}

/** write_file: create or replace a file. Not concurrency-safe. */
export function writeFileTool(workspace: Workspace) {
  return defineTool({
    name: "write_file",
    description:
      "Create a file or replace its whole content. Parent folders are created. To change part of an existing file, use edit_file.",
    parameters: z.object({ path: pathField, content: z.string().describe("The complete new file content") }),
    category: "edit",
    concurrencySafe: false,
    execute: (args) => runSafely(async () => textOutput(await writeWorkspaceFile(workspace, args))),
  });
}

/** edit_file: exact, unique string replacement. Not concurrency-safe. */
export function editFileTool(workspace: Workspace) {
  return defineTool({
    name: "edit_file",
    description:
      "Replace exact text in a file. old_string must match the file exactly (whitespace included) and occur exactly once, " +
      "unless replace_all is true; otherwise the call fails and says how many times it occurs. Read the file first.",
    parameters: z.object({
      path: pathField,
      old_string: z.string().min(1).describe("Exact text to replace"),
      new_string: z.string().describe("Replacement text"),
      replace_all: z.boolean().optional().describe("Replace every occurrence"),
    }),
    category: "edit",
    concurrencySafe: false,
    execute: (args) =>
      runSafely(async () =>
        textOutput(
          await editWorkspaceFile(workspace, {
            path: args.path,
            oldString: args.old_string,
            newString: args.new_string,
            replaceAll: args.replace_all,
          }),
        ),
      ),
  });
}

/** list_dir: one folder's entries. Concurrency-safe. */
export function listDirTool(workspace: Workspace, access: ReadToolAccess = {}) {
  return defineTool({
    name: "list_dir",
    description:
      "List a folder of the workspace: sub-folders end with '/', symlinks with '@'. Default: the workspace root.",
    parameters: z.object({
      path: z.string().optional().describe("Folder relative to the workspace root; default '.'"),
    }),
    category: "info",
    concurrencySafe: true,
    execute: (args, ctx) =>
      runSafely(async () => {
        const view = await readableView(workspace, access.confine?.(ctx.run), args.path ?? ".");
        return textOutput(await listWorkspaceDir(view.workspace, { path: view.path }));
      }),
  });
}

/** glob: paths matching a pattern. Concurrency-safe. */
export function globTool(workspace: Workspace, access: ReadToolAccess = {}) {
  return defineTool({
    name: "glob",
    description:
      "Find files by name pattern, e.g. '**/*.ts' or 'src/*.json'. Paths come back relative to the search folder, sorted. " +
      ".git and node_modules are skipped unless the pattern names them.",
    parameters: z.object({
      pattern: z.string().min(1).describe("Glob pattern; ** matches any depth"),
      path: z.string().optional().describe("Folder to search from; default the workspace root"),
    }),
    category: "info",
    concurrencySafe: true,
    execute: (args, ctx) =>
      runSafely(async () => {
        const view = await readableView(workspace, access.confine?.(ctx.run), args.path ?? ".");
        return textOutput(await globWorkspace(view.workspace, { pattern: args.pattern, path: view.path }));
      }),
  });
}

/** grep: regex search over file contents. Concurrency-safe. */
export function grepTool(workspace: Workspace, maxOutputChars = 30_000, access: ReadToolAccess = {}) {
  const outputs = access.outputs ?? defaultSessionOutputs();
  return defineTool({
    name: "grep",
    description:
      "Search file contents with a JavaScript regular expression. Prints 'path:line:text' per match. Narrow with path, " +
      "include/exclude globs (matched against workspace-relative paths, e.g. 'src/**/*.ts'). Binary files are skipped.",
    parameters: z.object({
      pattern: z.string().min(1).describe("Regular expression"),
      path: z.string().optional().describe("File or folder to search; default the workspace root"),
      include: z.array(z.string()).optional().describe("Only files matching one of these globs"),
      exclude: z.array(z.string()).optional().describe("Skip files matching one of these globs"),
      ignore_case: z.boolean().optional(),
      max_results: z.number().int().min(1).max(5000).optional().describe("Stop after this many matches; default 200"),
    }),
    category: "info",
    concurrencySafe: true,
    execute: (args, ctx) =>
      runSafely(async () => {
        const view = await readableView(workspace, access.confine?.(ctx.run), args.path ?? ".");
        const text = await grepWorkspace(view.workspace, {
          pattern: args.pattern,
          path: view.path,
          include: args.include,
          exclude: args.exclude,
          ignoreCase: args.ignore_case,
          maxResults: args.max_results,
        });
        const fitted = await fitOutput(outputs, ctx.run, text, maxOutputChars);
        return textOutput(fitted.text, fitted.spill);
      }),
  });
}
