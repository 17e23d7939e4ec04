import type { AnyAgentTool } from "@chorus/core";
import type { GatewayExtension } from "@chorus/gateway";
import { curateMcpTools, type SupervisedMcpServer } from "@chorus/tools";
import type { AgentMcpServers } from "./open-agent-mcp-servers.js";

/**
 * The agents' MCP tools in the gateway: each agent gets its servers' tools (so the trust tiers, `toolPolicy` and
 * `approvals` judge them like built-ins: group `mcp`); before each turn, the tools of a server that is down are taken
 * off the list, and when more than the agent's `mcpToolLimit` remain, only the most relevant to the turn's input are
 * offered (seed 003 step 13) — chosen once at the turn's start, so the list, and the cached prefix, hold for the whole
 * turn. `/status` names the servers that are down. `stop` closes every server.
 * Contract: adds nothing for an agent without `mcpServers`.
 * @example extensions.push(mcpExtension(await openAgentMcpServers(config, dir, logger), { main: 8 }))
 */
export function mcpExtension(
  servers: AgentMcpServers,
  toolLimits: Readonly<Record<string, number | undefined>>,
): GatewayExtension {
  const serverOf = new Map<AnyAgentTool, { agentId: string; server: SupervisedMcpServer }>();
  for (const [agentId, list] of Object.entries(servers.byAgent)) {
    for (const server of list) for (const tool of server.tools) serverOf.set(tool, { agentId, server });
  }
  // The turn's input, from beforeTurn (which runs first) to sessionTools, once per turn.
  const inputs = new Map<string, string>();
  return {
    name: "mcp",
    toolsFor: (agentId) => (servers.byAgent[agentId] ?? []).flatMap((server) => server.tools),
    beforeTurn: (turn) => {
      if ((servers.byAgent[turn.agentId] ?? []).length > 0) inputs.set(turn.sessionKey, turn.texts.join("\n"));
      return undefined;
    },
    sessionTools: (sessionKey, tools) => {
      const input = inputs.get(sessionKey) ?? "";
      inputs.delete(sessionKey);
      const owned = tools.map((tool) => serverOf.get(tool)).find((entry) => entry !== undefined);
      if (owned === undefined) return undefined;
      const up = tools.filter((tool) => serverOf.get(tool)?.server.available ?? true);
      const limit = toolLimits[owned.agentId];
      return limit === undefined ? up : curateMcpTools(up, input, limit);
    },
    statusLines: (session) =>
      (servers.byAgent[session.agentId] ?? [])
        .filter((server) => !server.available)
        .map(
          (server) =>
            `**MCP** ${server.name}: ${server.state}, its tools unavailable (${server.reason ?? "no reason given"})`,
        ),
    sessionIdle: (session) => {
      inputs.delete(session.sessionKey);
    },
    stop: () => servers.close(),
  };
}
