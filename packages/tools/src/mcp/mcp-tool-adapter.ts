import { type AnyAgentTool, defineTool } from "@chorus/core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { JsonSchemaType, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";
import { errorOutput } from "../tool-results/text-results.js";
import { type McpContentBlock, mcpContentToChorus } from "./mcp-content.js";
import { mcpToolName } from "./mcp-tool-name.js";

/** An MCP tool as listed by `tools/list`. */
export interface McpToolListing {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

/**
 * Wraps one MCP tool as a Chorus tool named `mcp__<server>__<tool>`, category "mcp".
 * Contract: arguments are validated against the tool's own JSON Schema before the server is
 * called (an invalid call is an error result naming the problem, the server never sees it);
 * server errors and `isError` results come back as error results; read-only tools (annotated
 * readOnlyHint) are concurrency-safe.
 */
export function mcpToolToAgentTool(
  server: string,
  client: Client,
  listing: McpToolListing,
  validator: jsonSchemaValidator,
): AnyAgentTool {
  const validate = validator.getValidator<Record<string, unknown>>(listing.inputSchema as JsonSchemaType);
  return defineTool({
    name: mcpToolName(server, listing.name),
    description: `${listing.description ?? listing.name} (MCP server "${server}", tool "${listing.name}")`,
    parameters: schemaToZod(listing.inputSchema),
    category: "mcp",
    concurrencySafe: listing.annotations?.readOnlyHint === true,
    async execute(args, ctx) {
      const checked = validate(args ?? {});
      if (!checked.valid) return errorOutput(`Invalid arguments for ${listing.name}: ${checked.errorMessage}`);
      try {
        const result = await client.callTool({ name: listing.name, arguments: checked.data }, undefined, {
          signal: ctx.signal,
        });
        const content = mcpContentToChorus((result.content ?? []) as McpContentBlock[]);
        return {
          content: content.length > 0 ? content : [{ type: "text", text: "(no content)" }],
          ...(result.structuredContent ? { details: { structuredContent: result.structuredContent } } : {}),
          ...(result.isError ? { isError: true } : {}),
        };
      } catch (error) {
        return errorOutput(`MCP server "${server}" failed on ${listing.name}: ${(error as Error).message}`);
      }
    },
  });
}

/** The model sees the server's schema; zod's copy is only as strict as it can faithfully be. */
function schemaToZod(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}
