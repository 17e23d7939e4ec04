import { SupervisedMcpServer } from "@chorus/tools";
import type { BotConfig } from "../../config/bot-config-schema.js";
import { mcpServerConfigOf } from "../../mcp/open-agent-mcp-servers.js";
import { CHECK_TIMEOUT_MS, type DoctorCheck } from "./doctor-check.js";

/**
 * Connects each agent's MCP servers as `chorus start` would (stdio servers started in the config file's folder),
 * lists their tools and closes them again: `mcp/<agent>/<server>` passes with its tool count, or fails with why.
 * Contract: never rejects; never prints a server's env, headers or arguments.
 */
export async function checkMcpServers(config: BotConfig, configDir: string): Promise<DoctorCheck[]> {
  const checks = config.agents.flatMap((agent) =>
    (agent.mcpServers ?? []).map(async (server): Promise<DoctorCheck> => {
      const name = `mcp/${agent.id}/${server.name}`;
      const opened = await SupervisedMcpServer.open(mcpServerConfigOf(server, configDir), {
        connectTimeoutMs: CHECK_TIMEOUT_MS,
      });
      const { state, reason } = opened;
      await opened.close();
      if (state !== "connected")
        return { name, ok: false, detail: `cannot connect over ${server.transport}: ${reason}` };
      const tools = opened.tools.map((tool) => tool.name.slice(`mcp__${server.name}__`.length));
      return {
        name,
        ok: true,
        detail: `connected over ${server.transport}: ${tools.length} tool(s) (${tools.join(", ")})`,
      };
    }),
  );
  return Promise.all(checks);
}
