import { defineTool } from "@chorus/core";
import { z } from "zod";
import { editWorkspaceFile } from "../fs/edit-file.js";
import { globWorkspace } from "../fs/glob-files.js";
import { grepWorkspace } from "../fs/grep-files.js";
import { listWorkspaceDir } from "../fs/list-dir.js";
import { type ReadFileLimits, readFileRange } from "../fs/read-file.js";
import { writeWorkspaceFile } from "../fs/write-file.js";
import { textOutput } from "../tool-results/text-results.js";
import { fitOutput } from "../workspace/output-spill.js";
import type { Workspace } from "../workspace/workspace-root.js";
import { runSafely } from "./run-safely.js";

const pathField = z.string().min(1).describe("Path relative to the workspace root, e.g. src/index.ts");

/** read_file: a text file by line range, numbered. Concurrency-safe. */
export function readFileTool(workspace: Workspace, limits: ReadFileLimits = {}) {
  return defineTool({
    name: "read_file",
    description:
      "Read a text file in the workspace. Lines come back numbered as '<line>\\t<text>'. For long files pass offset " +
      "(first line, 1-based) and limit (number of lines); the reply says where to continue. Binary files are refused.",
    parameters: z.object({
      path: pathField,
      offset: z.number().int().min(1).optional().describe("First line to read, 1-based"),
      limit: z.number().int().min(1).optional().describe("Number of lines to read"),
    }),
    category: "info",
    concurrencySafe: true,
    execute: (args) =>
      runSafely(async () => {
        const result = await readFileRange(workspace, args, limits);
        return textOutput(result.text, {
          firstLine: result.firstLine,
          lastLine: result.lastLine,
          totalLines: result.totalLines,
        });
      }),
  });
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
export function listDirTool(workspace: Workspace) {
  return defineTool({
    name: "list_dir",
    description:
      "List a folder of the workspace: sub-folders end with '/', symlinks with '@'. Default: the workspace root.",
    parameters: z.object({
      path: z.string().optional().describe("Folder relative to the workspace root; default '.'"),
    }),
    category: "info",
    concurrencySafe: true,
    execute: (args) => runSafely(async () => textOutput(await listWorkspaceDir(workspace, args))),
  });
}

/** glob: paths matching a pattern. Concurrency-safe. */
export function globTool(workspace: Workspace) {
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
    execute: (args) => runSafely(async () => textOutput(await globWorkspace(workspace, args))),
  });
}

/** grep: regex search over file contents. Concurrency-safe. */
export function grepTool(workspace: Workspace, maxOutputChars = 30_000) {
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
    execute: (args) =>
      runSafely(async () => {
        const text = await grepWorkspace(workspace, {
          pattern: args.pattern,
          path: args.path,
          include: args.include,
          exclude: args.exclude,
          ignoreCase: args.ignore_case,
          maxResults: args.max_results,
        });
        const fitted = await fitOutput(workspace, text, maxOutputChars);
        return textOutput(fitted.text, fitted.spill);
      }),
  });
}
