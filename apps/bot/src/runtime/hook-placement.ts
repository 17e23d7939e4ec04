import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { BotConfig } from "../config/bot-config-schema.js";
import type { AgentWorkspaces } from "./agent-workspaces.js";

/** A hook the bot refuses to run: its script (or its working folder) is a file an agent's tools could rewrite. */
export class MisplacedHookError extends Error {
  override readonly name = "MisplacedHookError";
}

/** Characters that end a word of a shell command (operators, redirections, quotes). */
const SHELL_SEPARATORS = /[\s;|&<>()`'"]+/;

/**
 * Refuses operator hooks the model could rewrite: every path a hook's command names (a word with a `/`, or a file of
 * that name in the config file's folder), resolved against that folder, and the folder itself, must lie outside
 * every agent's workspace — else the model's write_file could replace the guard with `exit 0` and then run what it
 * blocked.
 * Contract: throws MisplacedHookError naming the first such hook (agent, event, index), the path and the workspace;
 * symlinks are followed where the path exists.
 */
export function assertHooksOutsideWorkspaces(config: BotConfig, workspaces: AgentWorkspaces): void {
  const roots = Object.entries(workspaces.byAgent).map(([agentId, root]) => ({
    agentId,
    root: realOf(root),
  }));
  const hooksDir = realOf(workspaces.hooksDir);
  for (const agent of config.agents) {
    for (const [event, entries] of Object.entries(agent.hooks ?? {})) {
      for (const [index, entry] of (entries ?? []).entries()) {
        const where = `agents[${agent.id}].hooks.${event}[${index}] (${entry.command})`;
        for (const path of [hooksDir, ...pathsNamedBy(entry.command, workspaces.hooksDir)]) {
          const owner = roots.find(({ root }) => isInside(path, root));
          if (owner === undefined) continue;
          throw new MisplacedHookError(
            `${where}: ${path} lies inside the workspace of agent ${owner.agentId} (${owner.root}), where the ` +
              "agent's own file tools could rewrite it. Keep hook scripts and the files they write outside every " +
              "workspace, e.g. in a hooks/ folder next to chorus.config.yaml.",
          );
        }
      }
    }
  }
}

/** The paths a shell command names, resolved against `dir`: words with a `/`, and bare words that are files there. */
function pathsNamedBy(command: string, dir: string): string[] {
  const paths: string[] = [];
  for (const word of command.split(SHELL_SEPARATORS)) {
    if (word.length === 0 || word.startsWith("-") || word.startsWith("$")) continue;
    const path = resolve(dir, word);
    if (word.includes("/") || existsSync(path)) paths.push(realOf(path));
  }
  return paths;
}

/** The path with symlinks resolved, as far as it exists. */
function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
