import type { AnyAgentTool } from "@chorus/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { McpServerConfig } from "./mcp-server-config.js";
import { type McpToolListing, mcpToolToAgentTool } from "./mcp-tool-adapter.js";

/** What happened to one configured server. */
export type McpServerStatus =
  | { name: string; status: "connected"; toolNames: string[] }
  | { name: string; status: "failed"; error: string };

/** Live MCP connections and the tools they provide. */
export interface McpConnections {
  tools: AnyAgentTool[];
  servers: McpServerStatus[];
  /** Closes every connection (and stops stdio server processes). Contract: never rejects. */
  close(): Promise<void>;
}

export interface ConnectMcpOptions {
  /** Per-server time limit for connect + tools/list. Default 15 s. */
  connectTimeoutMs?: number;
  /** Called for each server that fails; it is skipped and the others still load. */
  onServerError?: (name: string, error: Error) => void;
  clientName?: string;
}

/**
 * Connects to MCP servers over stdio or Streamable HTTP and lists their tools as Chorus tools.
 * Contract: never rejects because of a server; a server that fails to connect or list is
 * reported in `servers` (and to `onServerError`) and skipped. Duplicate server names are refused
 * as failures so tool names stay unique.
 */
export async function connectMcpServers(
  configs: readonly McpServerConfig[],
  options: ConnectMcpOptions = {},
): Promise<McpConnections> {
  const validator = new AjvJsonSchemaValidator();
  const clients: Client[] = [];
  const seen = new Set<string>();
  const results = await Promise.all(
    configs.map(async (config): Promise<{ status: McpServerStatus; tools: AnyAgentTool[] }> => {
      if (seen.has(config.name)) {
        return { status: { name: config.name, status: "failed", error: "duplicate server name" }, tools: [] };
      }
      seen.add(config.name);
      const client = new Client({ name: options.clientName ?? "chorus", version: "0.1.0" });
      try {
        const signal = AbortSignal.timeout(options.connectTimeoutMs ?? 15_000);
        await withSignal(client.connect(makeTransport(config), { signal }), signal);
        clients.push(client);
        const listings = await listAllTools(client, signal);
        const tools = listings.map((listing) => mcpToolToAgentTool(config.name, client, listing, validator));
        return { status: { name: config.name, status: "connected", toolNames: tools.map((t) => t.name) }, tools };
      } catch (error) {
        const err = error instanceof Error ? error : new Error(String(error));
        options.onServerError?.(config.name, err);
        await client.close().catch(() => {});
        return { status: { name: config.name, status: "failed", error: err.message }, tools: [] };
      }
    }),
  );
  return {
    tools: results.flatMap((r) => r.tools),
    servers: results.map((r) => r.status),
    close: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
    },
  };
}

/** The SDK transport for one server's config (stdio: a child process, its stderr ignored). */
export function makeTransport(config: McpServerConfig): Transport {
  if (config.transport === "stdio") {
    return new StdioClientTransport({
      command: config.command,
      ...(config.args ? { args: config.args } : {}),
      ...(config.env ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "ignore",
    });
  }
  return new StreamableHTTPClientTransport(
    new URL(config.url),
    config.headers ? { requestInit: { headers: config.headers } } : undefined,
  );
}

/** Rejects when the signal aborts first (connect itself does not always honour it). */
/** Every tool a connected server lists, page after page. Contract: rejects when `signal` aborts or a page fails. */
export async function listAllTools(client: Client, signal: AbortSignal): Promise<McpToolListing[]> {
  const listings: McpToolListing[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { signal });
    listings.push(...(page.tools as McpToolListing[]));
    cursor = page.nextCursor;
  } while (cursor);
  return listings;
}

export function withSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("timed out connecting"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
