import { access, cp, mkdir, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { LEGACY_OUTPUTS_DIR } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";

/** Where each agent's files live, and what startup did about earlier installs. */
export interface AgentWorkspaces {
  /** Absolute workspace folder per agent id (agents naming the same workspace share one folder). */
  readonly byAgent: Readonly<Record<string, string>>;
  /** `<dataDir>/outputs`: saved tool outputs, one folder per session, outside every workspace. */
  readonly outputsRoot: string;
  /** The agent that kept the shared `<dataDir>/workspace` of an earlier install, if any. */
  readonly legacyAgent: string | undefined;
  /** That folder, when it exists but no agent uses it (every agent names its own workspace): say so at startup. */
  readonly legacyUnused: string | undefined;
  /** The config file's folder: operator hooks run there and their relative paths resolve there. */
  readonly hooksDir: string;
}

/**
 * The workspace of every agent: `workspace: <name>` is `<dataDir>/workspaces/<name>`, a value with a `/` is a path
 * (relative to `baseDir`), and an agent without one gets `<dataDir>/workspaces/<agent id>`. When the shared
 * `<dataDir>/workspace` of an earlier install exists, the default agent (without its own `workspace`) keeps using
 * it, so nothing in it is left behind.
 * Contract: pure apart from checking whether the old folder exists; creates nothing.
 */
export async function agentWorkspacesOf(config: BotConfig, baseDir: string): Promise<AgentWorkspaces> {
  const dataDir = resolve(baseDir, config.dataDir);
  const legacy = join(dataDir, "workspace");
  const legacyExists = await access(legacy).then(
    () => true,
    () => false,
  );
  const defaultAgent = config.defaultAgent ?? config.agents[0]?.id;
  const byAgent: Record<string, string> = {};
  let legacyAgent: string | undefined;
  for (const agent of config.agents) {
    if (agent.workspace !== undefined) {
      byAgent[agent.id] = agent.workspace.includes("/")
        ? resolve(baseDir, agent.workspace)
        : join(dataDir, "workspaces", agent.workspace);
    } else if (legacyExists && agent.id === defaultAgent) {
      byAgent[agent.id] = legacy;
      legacyAgent = agent.id;
    } else {
      byAgent[agent.id] = join(dataDir, "workspaces", agent.id);
    }
  }
  const legacyUnused = legacyExists && !Object.values(byAgent).includes(legacy) ? legacy : undefined;
  return { byAgent, outputsRoot: join(dataDir, "outputs"), legacyAgent, legacyUnused, hooksDir: resolve(baseDir) };
}

/**
 * Creates every workspace folder and moves outputs that earlier versions saved inside a workspace
 * (`.chorus/outputs/`, readable by anyone who could read the workspace) to `<outputsRoot>/legacy-<time>/`, where no
 * tool reaches them. Contract: returns the folders it moved outputs from; never deletes anything else.
 */
export async function prepareAgentWorkspaces(workspaces: AgentWorkspaces, now = new Date()): Promise<string[]> {
  await mkdir(workspaces.outputsRoot, { recursive: true, mode: 0o700 });
  const moved: string[] = [];
  for (const root of new Set(Object.values(workspaces.byAgent))) {
    await mkdir(root, { recursive: true, mode: 0o700 });
    const old = join(root, LEGACY_OUTPUTS_DIR);
    const exists = await access(old).then(
      () => true,
      () => false,
    );
    if (!exists) continue;
    const target = join(workspaces.outputsRoot, `legacy-${now.getTime()}-${moved.length}`);
    await rename(old, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EXDEV") throw error;
      await cp(old, target, { recursive: true });
      await rm(old, { recursive: true, force: true });
    });
    moved.push(old);
  }
  return moved;
}
