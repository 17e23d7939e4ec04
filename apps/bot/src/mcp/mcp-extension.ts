import type { AnyAgentTool } from "@chorus/core";
import type { GatewayExtension } from "@chorus/gateway";
import { curateMcpTools } from "@chorus/tools";
import type { AgentMcpServers } from "./open-agent-mcp-servers.js";

/**
 * The agents' MCP tools in the gateway: each agent gets its servers' tools (so the trust tiers, `toolPolicy` and
 * `approvals` judge them like built-ins, by name and group `mcp`); before each turn, tools a server listed only after
 * the gateway was built (it was unreachable at start, or gained tools on reconnecting) are added — the same gates judge
 * them, by name — the tools of a server that is down are taken off the list, and when more than the agent's
 * `mcpToolLimit` remain, only the most relevant to the turn's input are offered (seed 003 step 13) — chosen once at the
 * turn's start, so the list, and the cached prefix, hold for the whole turn. `/status` names the servers that are down.
 * `stop` closes every server.
 * Contract: adds nothing for an agent without `mcpServers`.
 * @example extensions.push(mcpExtension(await openAgentMcpServers(config, dir, logger), { main: 8 }))
 */
export function mcpExtension(
  servers: AgentMcpServers,
  toolLimits: Readonly<Record<string, number | undefined>>,
): GatewayExtension {
  const serversOf = (agentId: string) => servers.byAgent[agentId] ?? [];
  // The tools handed over at construction; any other tool of a server is one it listed later.
  const given = new Set<AnyAgentTool>();
  // The turn's agent and input, from beforeTurn (which runs first) to sessionTools, once per turn.
  const turns = new Map<string, { agentId: string; input: string }>();
  return {
    name: "mcp",
    toolsFor: (agentId) => {
      const tools = serversOf(agentId).flatMap((server) => server.tools);
      for (const tool of tools) given.add(tool);
      return tools;
    },
    beforeTurn: (turn) => {
      if (serversOf(turn.agentId).length > 0)
        turns.set(turn.sessionKey, { agentId: turn.agentId, input: turn.texts.join("\n") });
      return undefined;
    },
    sessionTools: (sessionKey, tools) => {
      const turn = turns.get(sessionKey);
      turns.delete(sessionKey);
      if (turn === undefined) return undefined;
      const mine = serversOf(turn.agentId);
      const late = mine.flatMap((server) => server.tools).filter((tool) => !given.has(tool) && !tools.includes(tool));
      const down = new Set(mine.filter((server) => !server.available).flatMap((server) => server.tools));
      const up = [...tools, ...late].filter((tool) => !down.has(tool));
      const limit = toolLimits[turn.agentId];
      return limit === undefined ? up : curateMcpTools(up, turn.input, limit);
    },
    statusLines: (session) =>
      serversOf(session.agentId)
        .filter((server) => !server.available)
        .map(
          (server) =>
            `**MCP** ${server.name}: ${server.state === "failed" ? "not reached yet, retrying" : server.state}, its tools unavailable (${server.reason ?? "no reason given"})`,
        ),
    sessionIdle: (session) => {
      turns.delete(session.sessionKey);
    },
    stop: () => servers.close(),
  };
}
