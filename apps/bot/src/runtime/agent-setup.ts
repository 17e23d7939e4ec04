import type { ToolRunInfo } from "@chorus/core";
import { type AgentRuntimeSetup, parseSessionKey, rootKeyOf } from "@chorus/gateway";
import {
  createBuiltinTools,
  DEFAULT_TIER_POLICIES,
  openSessionOutputs,
  RecentFileReads,
  type SessionOutputs,
  shellHooksOf,
  WorkingDirectories,
} from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";
import { buildModelRegistry, resolveModelRef } from "../models/model-reference.js";
import { agentApprovalPolicy } from "./agent-approvals.js";
import { agentLoopOf } from "./agent-loop-of.js";
import type { AgentWorkspaces } from "./agent-workspaces.js";

/** Tools a researcher sub-agent gets: it reads and reports, it never changes anything. */
const RESEARCH_TOOLS = new Set(["read_file", "list_dir", "glob", "grep", "current_time"]);

/**
 * The scope of saved outputs: the root session of the run. A sub-agent reads and writes its root session's outputs
 * (the same conversation, the same people); no session ever reaches another root session's outputs.
 * Contract: a session id that is not a session key is its own scope.
 */
export function outputScopeOf(run: ToolRunInfo): string {
  const id = run.sessionId ?? "no-session";
  const parsed = parseSessionKey(id);
  return parsed.ok ? rootKeyOf(id) : id;
}

/** The saved-outputs store of the bot. Contract: `<dataDir>/outputs` (created), scoped by root session. */
export function botSessionOutputs(workspaces: AgentWorkspaces): SessionOutputs {
  return openSessionOutputs({ root: workspaces.outputsRoot, scopeOf: outputScopeOf });
}

/**
 * The tools and sub-agent profiles of every configured agent: the built-in tools on the agent's own workspace
 * (guests confined to its `guestRead` folders, reading nothing without them), its approval policy, a read-only
 * `researcher` profile for spawn_agent, and its loop settings (fallback models, max turns, stalls, compaction). Who may
 * use which tool is decided per message by the gateway (trust tier and the agent's toolPolicy).
 * Contract: every workspace in `workspaces` must exist.
 */
export function agentSetupsOf(
  config: BotConfig,
  workspaces: AgentWorkspaces,
  outputs: SessionOutputs = botSessionOutputs(workspaces),
): Record<string, AgentRuntimeSetup> {
  const setups: Record<string, AgentRuntimeSetup> = {};
  const registry = buildModelRegistry(config);
  for (const agent of config.agents) {
    const workspaceRoot = workspaces.byAgent[agent.id];
    if (workspaceRoot === undefined) throw new Error(`no workspace for agent ${agent.id}`);
    const guestRead = agent.guestRead ?? [];
    // Each session's exec directory, fixed per turn, and the files it read (re-attached after a compaction).
    const directories = new WorkingDirectories({ env: agent.exec.env });
    const recentReads = new RecentFileReads();
    const tools = createBuiltinTools({
      workspaceRoot,
      outputs,
      guestReadFolders: guestRead,
      recentReads,
      ...(agent.exec.changeDirectory ? { workingDirectories: directories } : {}),
    });
    const researchTools = tools.filter((tool) => RESEARCH_TOOLS.has(tool.name));
    const hooks = shellHooksOf(agent.hooks, workspaces.hooksDir);
    setups[agent.id] = {
      tools,
      ...(hooks === undefined ? {} : { hooks }),
      executionContext: directories.source,
      recentFiles: recentReads.source,
      // Guests may call the read tools only where folders were granted; the tools confine them to those folders.
      ...(guestRead.length === 0
        ? {}
        : { tiers: { guest: { allow: [...(DEFAULT_TIER_POLICIES.guest.allow ?? []), "group:fs-read"] } } }),
      policies: [agentApprovalPolicy(agent)],
      loop: agentLoopOf(agent, (ref) => resolveModelRef(ref, registry, config)),
      subagents: {
        researcher: {
          description: "Reads the workspace (files, folders, search) to answer one question, and reports back.",
          systemPrompt: "Investigate with your read-only tools, then answer with a short, self-contained report.",
          tools: researchTools,
        },
      },
    };
  }
  return setups;
}
