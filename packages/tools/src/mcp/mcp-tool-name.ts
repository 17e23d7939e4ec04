/**
 * The Chorus name of an MCP tool: `mcp__<server>__<tool>`, with characters outside
 * [A-Za-z0-9_-] replaced by "_" and cut to 64 characters (the providers' limit).
 */
export function mcpToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
  return `mcp__${clean(server)}__${clean(tool)}`.slice(0, 64);
}
