import type { AgentRuntimeSetup } from "@chorus/gateway";
import { createBuiltinTools } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";

/** Tools a researcher sub-agent gets: it reads and reports, it never changes anything. */
const RESEARCH_TOOLS = new Set(["read_file", "list_dir", "glob", "grep", "current_time"]);

/**
 * The tools and sub-agent profiles of every configured agent: the built-in tools on the shared workspace, and a
 * read-only `researcher` profile for spawn_agent. Who may use which tool is decided per message by the gateway
 * (trust tier and the agent's toolPolicy).
 * Contract: `workspaceRoot` must exist.
 */
export function agentSetupsOf(config: BotConfig, workspaceRoot: string): Record<string, AgentRuntimeSetup> {
  const tools = createBuiltinTools({ workspaceRoot });
  const researchTools = tools.filter((tool) => RESEARCH_TOOLS.has(tool.name));
  const setups: Record<string, AgentRuntimeSetup> = {};
  for (const agent of config.agents) {
    setups[agent.id] = {
      tools,
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
