import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ToolRunInfo } from "@chorus/core";
import { ToolInputError } from "../fs/tool-input-error.js";

/** How a saved output is named to the model: `output:<id>.txt`, readable with read_file. */
export const OUTPUT_HANDLE_PREFIX = "output:";

const HANDLE_PATTERN = /^output:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.txt$/;

/**
 * Where cut tool outputs are kept in full: one folder per session scope under `root`, outside every workspace, so
 * no file tool can list or search them and only the session that wrote one can read it back by its handle.
 */
export interface SessionOutputs {
  /** Absolute folder holding `<sha256 of the scope>/<id>.txt`. Never inside a workspace. */
  readonly root: string;
  /** The scope of a call: calls with the same scope see the same outputs. */
  scopeOf(run: ToolRunInfo): string;
}

export interface SessionOutputsOptions {
  /** Folder for the outputs; created when missing. Default: a fresh folder under the OS temp dir. */
  root?: string;
  /**
   * The scope of a call. Default: `run.sessionId` (a run without one gets the scope "no-session"). A host whose
   * sub-agents should read their root session's outputs passes the root session of `run.sessionId` here.
   */
  scopeOf?: (run: ToolRunInfo) => string;
}

/**
 * Opens the store of saved outputs.
 * Contract: a given `root` is created at once and kept; without `root` each call names a new private temp folder,
 * created on the first save and removed when the process exits (nothing else could read it after that).
 * @example const outputs = openSessionOutputs({ root: "/srv/chorus/data/outputs" });
 */
export function openSessionOutputs(options: SessionOutputsOptions = {}): SessionOutputs {
  const scopeOf = options.scopeOf ?? ((run: ToolRunInfo) => run.sessionId ?? "no-session");
  if (options.root !== undefined) {
    const root = resolve(options.root);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    return { root, scopeOf };
  }
  const root = join(tmpdir(), `chorus-outputs-${randomUUID()}`);
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  return { root, scopeOf };
}

/** The folder of one scope: a hash, so a session key (with its `:` and ids) never becomes a path. */
function scopeFolder(outputs: SessionOutputs, run: ToolRunInfo): string {
  const digest = createHash("sha256").update(outputs.scopeOf(run)).digest("hex").slice(0, 32);
  return join(outputs.root, digest);
}

/**
 * Saves `text` for the session of `run`.
 * Contract: returns the handle (`output:<uuid>.txt`) that read_file accepts from the same scope only.
 */
export async function saveSessionOutput(outputs: SessionOutputs, run: ToolRunInfo, text: string): Promise<string> {
  const id = randomUUID();
  const folder = scopeFolder(outputs, run);
  await mkdir(outputs.root, { recursive: true, mode: 0o700 });
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, `${id}.txt`), text, { encoding: "utf8", mode: 0o600 });
  return `${OUTPUT_HANDLE_PREFIX}${id}.txt`;
}

/** Whether `path` is written as an output handle. Contract: pure; true for malformed handles too (`output:…`). */
export function isOutputHandle(path: string): boolean {
  return path.startsWith(OUTPUT_HANDLE_PREFIX);
}

/**
 * The file behind a handle, looked up in the caller's own scope.
 * Contract: throws ToolInputError for a malformed handle and for one that this session did not write (the same
 * "not found" either way, so a handle from another session reveals nothing).
 */
export async function resolveOutputHandle(outputs: SessionOutputs, run: ToolRunInfo, handle: string): Promise<string> {
  const id = HANDLE_PATTERN.exec(handle)?.[1];
  if (id === undefined) {
    throw new ToolInputError(`"${handle}" is not a saved-output handle; they look like output:<id>.txt.`);
  }
  const file = join(scopeFolder(outputs, run), `${id}.txt`);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new ToolInputError(`No saved output ${handle} in this conversation.`);
  return file;
}

let processOutputs: SessionOutputs | undefined;

/**
 * The store tools use when none is given: one private temp folder per process, scoped by `run.sessionId`.
 * Contract: the same object for the life of the process.
 */
export function defaultSessionOutputs(): SessionOutputs {
  processOutputs ??= openSessionOutputs();
  return processOutputs;
}
