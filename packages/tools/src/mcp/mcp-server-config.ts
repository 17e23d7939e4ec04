/** How to reach one MCP server. `name` becomes the middle part of its tools' names. */
export type McpServerConfig =
  | {
      name: string;
      transport: "stdio";
      command: string;
      args?: string[];
      /** Environment of the server process. Default: the SDK's safe subset (PATH, HOME, …). */
      env?: Record<string, string>;
      cwd?: string;
    }
  | {
      name: string;
      transport: "http";
      /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp. */
      url: string;
      /** Extra request headers (e.g. Authorization). Never logged. */
      headers?: Record<string, string>;
    };
