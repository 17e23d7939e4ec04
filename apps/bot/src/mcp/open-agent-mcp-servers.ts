import { resolve } from "node:path";
import { type McpServerConfig, type SupervisedMcpOptions, SupervisedMcpServer } from "@chorus/tools";
import type { Logger } from "pino";
import type { BotConfig } from "../config/bot-config-schema.js";
import type { BotMcpServer } from "./mcp-server-schema.js";

/** Every agent's supervised MCP servers. */
export interface AgentMcpServers {
  readonly byAgent: Readonly<Record<string, readonly SupervisedMcpServer[]>>;
  /** Closes every server (stdio processes stop). Contract: never rejects. */
  close(): Promise<void>;
}

/** The tools package's config of one server: a stdio server runs in the config file's folder unless `cwd` is set. */
export function mcpServerConfigOf(server: BotMcpServer, configDir: string): McpServerConfig {
  if (server.transport === "http") {
    const { name, url, headers } = server;
    return { name, transport: "http", url, ...(headers === undefined ? {} : { headers }) };
  }
  const { name, command, args, env } = server;
  return {
    name,
    transport: "stdio",
    command,
    cwd: resolve(configDir, server.cwd ?? "."),
    ...(args === undefined ? {} : { args }),
    ...(env === undefined ? {} : { env }),
  };
}

/**
 * Connects every agent's `mcpServers` (all at once) and keeps them connected: a server that dies is reconnected with
 * backoff, its tools answering "unavailable" meanwhile. What happens is logged by server name only (never its env,
 * headers or arguments, which may carry secrets).
 * Contract: never rejects; a server unreachable now is logged as an error and retried with the same backoff — its
 * tools are offered from the turn after it connects.
 */
export async function openAgentMcpServers(
  config: BotConfig,
  configDir: string,
  logger: Logger,
  options: Pick<SupervisedMcpOptions, "reconnectDelaysMs" | "connectTimeoutMs"> = {},
): Promise<AgentMcpServers> {
  const entries = await Promise.all(
    config.agents.map(async (agent) => {
      const servers = await Promise.all(
        (agent.mcpServers ?? []).map((server) =>
          SupervisedMcpServer.open(mcpServerConfigOf(server, configDir), {
            ...options,
            clientName: "chorus",
            onStateChange: (name, state, reason) => {
              const fields = { agentId: agent.id, mcpServer: name, state, ...(reason ? { reason } : {}) };
              if (state === "reconnecting")
                logger.warn(fields, "MCP server died: its tools are unavailable until it reconnects");
              else if (state === "failed")
                logger.error(
                  fields,
                  "MCP server unreachable at start: retrying with backoff, its tools are offered once it connects",
                );
              else if (state === "connected") logger.info(fields, "MCP server connected");
            },
          }),
        ),
      );
      return [agent.id, servers] as const;
    }),
  );
  const byAgent = Object.fromEntries(entries);
  return {
    byAgent,
    close: async () => {
      await Promise.all(entries.flatMap(([, servers]) => servers.map((server) => server.close())));
    },
  };
}
