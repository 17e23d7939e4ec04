import type { AnyAgentTool } from "@chorus/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { errorOutput } from "../tool-results/text-results.js";
import { listAllTools, makeTransport, withSignal } from "./connect-mcp-servers.js";
import type { McpServerConfig } from "./mcp-server-config.js";
import { type McpToolListing, mcpToolToAgentTool } from "./mcp-tool-adapter.js";
import { mcpToolName } from "./mcp-tool-name.js";

/**
 * Where a supervised server stands: its tools run only while `connected`; `failed` was never reached and is retried,
 * `reconnecting` died after a connection and is retried.
 */
export type McpServerState = "connected" | "reconnecting" | "failed" | "closed";

/** Options of a supervised server. */
export interface SupervisedMcpOptions {
  /** Time limit of each connect + tools/list. Default 15 s. */
  connectTimeoutMs?: number;
  /** Waits between attempts after the server died or failed at start; the last repeats. Default 0.5 s, 1 s, 2 s, 5 s, 10 s, 30 s. */
  reconnectDelaysMs?: readonly number[];
  /** Hears each change of state (a reason with `reconnecting` and `failed`). */
  onStateChange?: (server: string, state: McpServerState, reason?: string) => void;
  clientName?: string;
}

const DEFAULT_DELAYS = [500, 1000, 2000, 5000, 10_000, 30_000];

/**
 * One MCP server kept connected: its tools are listed at each connection as stable Chorus tools (a tool, once known, is
 * the same object for the process's life, so an agent's tool list and its cached prefix hold; a tool a later connection
 * lists is added); when the server dies (its process exits, its connection fails) it is `reconnecting` — its tools
 * answer that it is unavailable without calling it — and it is reconnected with backoff until it answers again.
 * Contract: `open` never rejects; a server that cannot be reached at the first attempt is `failed`, with no tools yet,
 * and is retried with the same backoff — its tools appear once it connects. `close` never rejects and stops retrying.
 * @example const server = await SupervisedMcpServer.open({ name: "notes", transport: "stdio", command: "node", args: ["notes.mjs"] });
 */
export class SupervisedMcpServer {
  readonly name: string;
  #state: McpServerState = "failed";
  #reason: string | undefined;
  #client: Client | undefined;
  #inner = new Map<string, AnyAgentTool>();
  #tools: AnyAgentTool[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #attempt = 0;
  readonly #validator = new AjvJsonSchemaValidator();

  private constructor(
    readonly config: McpServerConfig,
    private readonly options: SupervisedMcpOptions,
  ) {
    this.name = config.name;
  }

  /** Connects and lists the server's tools (see the class's contract). */
  static async open(config: McpServerConfig, options: SupervisedMcpOptions = {}): Promise<SupervisedMcpServer> {
    const server = new SupervisedMcpServer(config, options);
    try {
      server.#learn(await server.#connect());
      server.#setState("connected");
    } catch (error) {
      server.#setState("failed", (error as Error).message);
      server.#scheduleReconnect();
    }
    return server;
  }

  /** connected, reconnecting (died; tools unavailable meanwhile), failed (never reached yet; retried) or closed. */
  get state(): McpServerState {
    return this.#state;
  }

  /** Why the server is not connected, when it is not. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** Its tools known so far, `mcp__<server>__<tool>`: each the same object whatever the state; new ones appended. */
  get tools(): readonly AnyAgentTool[] {
    return this.#tools;
  }

  /** Whether its tools can run now. */
  get available(): boolean {
    return this.#state === "connected";
  }

  /** Closes the connection (a stdio server's process stops) and stops reconnecting. */
  async close(): Promise<void> {
    this.#setState("closed");
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => {});
  }

  async #connect(): Promise<McpToolListing[]> {
    const client = new Client({ name: this.options.clientName ?? "chorus", version: "0.1.0" });
    const signal = AbortSignal.timeout(this.options.connectTimeoutMs ?? 15_000);
    try {
      await withSignal(client.connect(makeTransport(this.config), { signal }), signal);
      const listings = await listAllTools(client, signal);
      this.#inner = new Map(
        listings.map((listing) => [listing.name, mcpToolToAgentTool(this.name, client, listing, this.#validator)]),
      );
      this.#client = client;
      // A stdio server's process exiting closes its transport; our own close() sets "closed" first.
      client.onclose = () => {
        if (this.#client === client) this.#died("the connection closed");
      };
      return listings;
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
  }

  /** Adds a stable tool for each listed tool not known yet (a server reached late, or one that gained tools). */
  #learn(listings: readonly McpToolListing[]): void {
    const known = new Set(this.#tools.map((tool) => tool.name));
    const added = listings.filter((listing) => !known.has(mcpToolName(this.name, listing.name)));
    if (added.length > 0) this.#tools = [...this.#tools, ...added.map((listing) => this.#stableTool(listing.name))];
  }

  /** A tool whose identity never changes; each call goes to the current connection's tool, or answers unavailable. */
  #stableTool(toolName: string): AnyAgentTool {
    const first = this.#inner.get(toolName) as AnyAgentTool;
    return {
      ...first,
      execute: async (args, ctx) => {
        const inner = this.#inner.get(toolName);
        if (!this.available || inner === undefined) {
          return errorOutput(
            `MCP server "${this.name}" is unavailable (${this.#reason ?? "reconnecting"}); its tools are back once it reconnects.`,
          );
        }
        const output = await inner.execute(args, ctx);
        // A call that failed because the connection is gone (not the tool's own error) means the server died.
        if (output.isError && isConnectionLoss(output)) this.#died("a call lost its connection");
        return output;
      },
    };
  }

  #died(reason: string): void {
    if (this.#state !== "connected") return;
    const client = this.#client;
    this.#client = undefined;
    void client?.close().catch(() => {});
    this.#attempt = 0;
    this.#setState("reconnecting", reason);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const delays = this.options.reconnectDelaysMs ?? DEFAULT_DELAYS;
    const delay = delays[Math.min(this.#attempt, delays.length - 1)] ?? 1000;
    this.#attempt += 1;
    this.#timer = setTimeout(() => {
      void this.#connect().then(
        (listings) => {
          if (this.#state === "closed") {
            void this.#client?.close().catch(() => {});
            return;
          }
          this.#learn(listings);
          this.#setState("connected");
        },
        (error: unknown) => {
          if (this.#state !== "reconnecting" && this.#state !== "failed") return;
          this.#reason = (error as Error).message;
          this.#scheduleReconnect();
        },
      );
    }, delay);
    this.#timer.unref?.();
  }

  #setState(state: McpServerState, reason?: string): void {
    this.#state = state;
    this.#reason = state === "connected" ? undefined : reason;
    this.options.onStateChange?.(this.name, state, reason);
  }
}

/** The adapter's message for a call the transport could not carry (a refused or reset connection, a closed pipe). */
function isConnectionLoss(output: { content: readonly { type: string; text?: string }[] }): boolean {
  const text = output.content.map((block) => block.text ?? "").join(" ");
  return (
    /^MCP server ".*" failed on /.test(text) &&
    /ECONNREFUSED|ECONNRESET|fetch failed|Connection closed|EPIPE|socket hang up|not connected/i.test(text)
  );
}
