import { defineTool } from "@chorus/core";
import { z } from "zod";
import { type ExecOptions, execInWorkspace } from "../exec/exec-command.js";
import { effectiveCwd } from "../execution/effective-cwd.js";
import { defaultSessionOutputs, type SessionOutputs } from "../workspace/session-outputs.js";
import type { Workspace } from "../workspace/workspace-root.js";
import { runSafely } from "./run-safely.js";

/**
 * exec: a shell command in the workspace, in the turn's working directory (`ctx.execution.cwd`, else the root) with
 * the turn's environment overrides. A cut output is saved for the calling session only (`outputs`, default
 * defaultSessionOutputs()). Not concurrency-safe.
 */
export function execTool(
  workspace: Workspace,
  options: Omit<ExecOptions, "signal" | "saveTo"> = {},
  outputs: SessionOutputs = defaultSessionOutputs(),
) {
  const maxTimeout = options.maxTimeoutSeconds ?? 600;
  return defineTool({
    name: "exec",
    description:
      "Run a shell command (/bin/sh -c) in the workspace and get its exit code and combined stdout/stderr. Long output " +
      "keeps its start and end, states the total size, and is saved in full to a file you can read_file. On timeout the " +
      `command and all its child processes are killed. Default timeout ${options.defaultTimeoutSeconds ?? 120} s, at most ${maxTimeout} s.`,
    parameters: z.object({
      command: z.string().min(1).describe("Shell command line"),
      cwd: z.string().optional().describe("Folder to run in, relative to the current working directory"),
      timeout_seconds: z.number().positive().max(maxTimeout).optional(),
    }),
    category: "exec",
    concurrencySafe: false,
    // Our own timeout (which kills the process group and says so) must fire before core's.
    timeoutMs: maxTimeout * 1000 + 5_000,
    execute: (args, ctx) =>
      runSafely(async () => {
        const result = await execInWorkspace(
          workspace,
          { command: args.command, cwd: effectiveCwd(ctx.execution, args.cwd), timeoutSeconds: args.timeout_seconds },
          {
            ...options,
            signal: ctx.signal,
            saveTo: { outputs, run: ctx.run },
            ...(ctx.execution === undefined ? {} : { envOverrides: ctx.execution.env }),
          },
        );
        const failed = result.outcome !== "exited" || result.exitCode !== 0;
        return {
          content: [{ type: "text", text: result.text }],
          details: {
            outcome: result.outcome,
            exitCode: result.exitCode,
            totalBytes: result.totalBytes,
            fullOutputPath: result.fullOutputPath,
          },
          ...(failed ? { isError: true } : {}),
        };
      }),
  });
}
