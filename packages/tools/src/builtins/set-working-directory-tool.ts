import { stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { defineTool } from "@chorus/core";
import { z } from "zod";
import type { WorkingDirectories } from "../execution/working-directories.js";
import { textOutput } from "../tool-results/text-results.js";
import { resolveInWorkspace, type Workspace } from "../workspace/workspace-root.js";
import { runSafely } from "./run-safely.js";

/**
 * set_working_directory: changes the folder exec commands run in, from the session's next turn on (seed 002: the
 * turn's execution context is fixed when it starts). Confined to the workspace. Not concurrency-safe.
 */
export function setWorkingDirectoryTool(workspace: Workspace, directories: WorkingDirectories) {
  return defineTool({
    name: "set_working_directory",
    description:
      "Change the folder exec commands run in (relative to the workspace root). Takes effect from the next turn: " +
      "commands later in this turn still run in the current folder.",
    parameters: z.object({
      path: z.string().min(1).describe("Folder relative to the workspace root, e.g. packages/app"),
    }),
    category: "edit",
    concurrencySafe: false,
    execute: (args, ctx) =>
      runSafely(async () => {
        const absolute = await resolveInWorkspace(workspace, args.path);
        const info = await stat(absolute).catch(() => undefined);
        if (!info?.isDirectory()) throw new Error(`Not a folder in the workspace: ${args.path}`);
        const dir = relative(workspace.root, absolute).split(sep).join("/") || ".";
        const current = ctx.execution?.cwd ?? directories.get(ctx.run.sessionId);
        directories.set(ctx.run.sessionId, dir);
        return textOutput(
          `Working directory set to ${dir} from the next turn on (commands in this turn still run in ${current}).`,
          { cwd: dir },
        );
      }),
  });
}
