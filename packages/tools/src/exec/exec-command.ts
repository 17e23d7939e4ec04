import { spawn } from "node:child_process";
import type { ToolRunInfo } from "@chorus/core";
import { defaultSessionOutputs, type SessionOutputs, saveSessionOutput } from "../workspace/session-outputs.js";
import { resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { HeadTailBuffer } from "./head-tail-buffer.js";
import { killProcessGroup } from "./process-group.js";
import { safeEnvironment } from "./safe-environment.js";

export interface ExecArgs {
  command: string;
  /** Folder to run in, relative to the workspace root. */
  cwd?: string | undefined;
  timeoutSeconds?: number | undefined;
}

export interface ExecOptions {
  /** Default timeout when the call gives none. Default 120 s. */
  defaultTimeoutSeconds?: number;
  /** Upper bound on a call's timeout. Default 600 s. */
  maxTimeoutSeconds?: number;
  /** Bytes of output shown from the start and from the end. Default 12 000 each. */
  headBytes?: number;
  tailBytes?: number;
  /**
   * Environment for the command. Default: a safe subset of this process's (PATH, HOME, USER,
   * LANG, LC_ALL, TERM, TMPDIR, SHELL, TZ), so API keys in the host's environment never reach a
   * command the model wrote.
   */
  env?: NodeJS.ProcessEnv;
  /** Variables added on top of `env` (the turn's execution-context overrides). */
  envOverrides?: Readonly<Record<string, string>>;
  /** Shell to run the command with. Default /bin/sh. */
  shell?: string;
  signal?: AbortSignal;
  /**
   * Where a cut output is kept in full, and for which session. Default: defaultSessionOutputs(), scope "no-session".
   */
  saveTo?: { outputs: SessionOutputs; run: ToolRunInfo };
}

export type ExecOutcome = "exited" | "timed_out" | "aborted";

export interface ExecResult {
  outcome: ExecOutcome;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Output shown to the model: stdout and stderr interleaved, head and tail when long. */
  text: string;
  totalBytes: number;
  /** The handle of the full output (read_file `output:<id>.txt`, same session only) when it was cut. */
  fullOutputPath?: string;
  pid: number | undefined;
}

/**
 * Runs a shell command in the workspace in its own process group.
 * Contract: on timeout or abort the whole group (the shell and all its descendants) is killed
 * with SIGKILL and the result says so; output beyond head + tail is cut with the total size
 * stated and kept in full (up to 8 MiB) as a saved output of the calling session (`options.saveTo`), outside the
 * workspace. Never rejects for a failing command.
 */
export async function execInWorkspace(
  workspace: Workspace,
  args: ExecArgs,
  options: ExecOptions = {},
): Promise<ExecResult> {
  const cwd = await resolveInWorkspace(workspace, args.cwd ?? ".");
  const maxTimeout = options.maxTimeoutSeconds ?? 600;
  const timeoutSeconds = Math.min(
    Math.max(args.timeoutSeconds ?? options.defaultTimeoutSeconds ?? 120, 0.001),
    maxTimeout,
  );
  const headBytes = options.headBytes ?? 12_000;
  const tailBytes = options.tailBytes ?? 12_000;
  const buffer = new HeadTailBuffer(headBytes, tailBytes, 8 * 1024 * 1024);

  const child = spawn(options.shell ?? "/bin/sh", ["-c", args.command], {
    cwd,
    env: { ...(options.env ?? safeEnvironment()), ...options.envOverrides },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => buffer.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => buffer.push(chunk));

  // An object, not a let: TypeScript would narrow a let to "exited" across the closure.
  const state: { outcome: ExecOutcome } = { outcome: "exited" };
  const stop = (why: ExecOutcome) => {
    if (state.outcome !== "exited") return;
    state.outcome = why;
    killProcessGroup(child);
  };
  const timer = setTimeout(() => stop("timed_out"), timeoutSeconds * 1000);
  const onAbort = () => stop("aborted");
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("error", (error) => {
      buffer.push(Buffer.from(`failed to start: ${error.message}\n`));
      resolve({ code: null, signal: null });
    });
    // "close" waits for the pipes; a descendant that kept them open was killed with the group.
    child.once("close", (c, s) => resolve({ code: c, signal: s }));
  });
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  // The shell may exit normally while a background child lives on: clean the group up anyway.
  killProcessGroup(child);

  let fullOutputPath: string | undefined;
  let text = buffer.render(
    (cut) => `\n\n[... ${cut} bytes cut from the middle of ${buffer.total} bytes of output ...]\n\n`,
  );
  if (buffer.cut) {
    const saveTo = options.saveTo ?? { outputs: defaultSessionOutputs(), run: { runId: "", depth: 0 } };
    fullOutputPath = await saveSessionOutput(saveTo.outputs, saveTo.run, buffer.keptText());
    const partial = buffer.keptAll ? "" : ` (first ${8 * 1024 * 1024} bytes only)`;
    text += `\n[full output${partial} saved as ${fullOutputPath}; read it with read_file (path "${fullOutputPath}") using offset and limit]`;
  }
  const outcome = state.outcome;
  const header =
    outcome === "timed_out"
      ? `Timed out after ${timeoutSeconds} s; the command and its child processes were killed.`
      : outcome === "aborted"
        ? "Aborted; the command and its child processes were killed."
        : signal
          ? `Killed by ${signal}.`
          : `Exit code ${code}.`;
  return {
    outcome,
    exitCode: code,
    signal,
    text: `${header}\n${text.length > 0 ? text : "(no output)"}`,
    totalBytes: buffer.total,
    ...(fullOutputPath ? { fullOutputPath } : {}),
    pid: child.pid,
  };
}
