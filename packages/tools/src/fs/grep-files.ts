import { readdir, readFile, stat } from "node:fs/promises";
import { join, matchesGlob } from "node:path";
import { displayPath, resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { looksBinary } from "./binary-detect.js";
import { DEFAULT_SKIPPED_DIRS } from "./glob-files.js";
import { ToolInputError } from "./tool-input-error.js";

export interface GrepArgs {
  /** A JavaScript regular expression. */
  pattern: string;
  /** File or folder to search, relative to the workspace root. */
  path?: string | undefined;
  /** Only files whose workspace-relative path matches one of these globs. */
  include?: string[] | undefined;
  /** Skip files whose workspace-relative path matches one of these globs. */
  exclude?: string[] | undefined;
  ignoreCase?: boolean | undefined;
  maxResults?: number | undefined;
}

const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_LINE_CHARS = 400;
// A model-written regex runs synchronously; bounding the input bounds a pathological pattern's cost.
const MAX_TESTED_CHARS = 10_000;

/**
 * Searches workspace files line by line for a regular expression; prints `path:line:text`.
 * Contract: skips binary files, files over 5 MiB, symlinks and .git/node_modules; stops after
 * `maxResults` matches (default 200) and says so; an invalid regex is a ToolInputError. Only the first
 * 10 000 characters of a line are searched.
 */
export async function grepWorkspace(workspace: Workspace, args: GrepArgs): Promise<string> {
  let regex: RegExp;
  try {
    regex = new RegExp(args.pattern, args.ignoreCase ? "i" : "");
  } catch (error) {
    throw new ToolInputError(`Invalid regular expression: ${(error as Error).message}`);
  }
  const maxResults = Math.max(1, args.maxResults ?? 200);
  const start = await resolveInWorkspace(workspace, args.path ?? ".");
  const startInfo = await stat(start).catch(() => undefined);
  if (!startInfo) throw new ToolInputError(`Not found: ${displayPath(workspace, start)}`);
  const files = startInfo.isDirectory() ? await walkFiles(start) : [start];
  const hits: string[] = [];
  let truncated = false;
  let filesSearched = 0;
  for (const file of files) {
    const rel = displayPath(workspace, file);
    if (args.include?.length && !args.include.some((g) => matchesGlob(rel, g))) continue;
    if (args.exclude?.some((g) => matchesGlob(rel, g))) continue;
    const info = await stat(file).catch(() => undefined);
    if (!info || info.size > MAX_FILE_BYTES) continue;
    const bytes = await readFile(file).catch(() => undefined);
    if (!bytes || looksBinary(bytes)) continue;
    filesSearched++;
    const lines = bytes.toString("utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (!regex.test(line.length > MAX_TESTED_CHARS ? line.slice(0, MAX_TESTED_CHARS) : line)) continue;
      if (hits.length >= maxResults) {
        truncated = true;
        break;
      }
      const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [line cut]` : line;
      hits.push(`${rel}:${i + 1}:${text}`);
    }
    if (truncated) break;
  }
  if (hits.length === 0) return `No matches for /${args.pattern}/ in ${filesSearched} files.`;
  return truncated
    ? `${hits.join("\n")}\n[stopped at ${maxResults} matches; narrow the pattern or the path to see more]`
    : hits.join("\n");
}

async function walkFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!DEFAULT_SKIPPED_DIRS.includes(entry.name)) out.push(...(await walkFiles(full)));
    } else if (entry.isFile()) {
      out.push(full);
    }
  }
  return out;
}
