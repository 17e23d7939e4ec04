import type { ImageContent, TextContent } from "@chorus/core";

/** One block of an MCP tool result (the subset of the spec Chorus maps; the rest is described). */
export interface McpContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/**
 * Maps MCP result content to Chorus content: text and images pass through, embedded text
 * resources become text, anything else becomes a one-line description.
 */
export function mcpContentToChorus(blocks: readonly McpContentBlock[]): (TextContent | ImageContent)[] {
  return blocks.map((block): TextContent | ImageContent => {
    if (block.type === "text") return { type: "text", text: block.text ?? "" };
    if (block.type === "image" && block.data && block.mimeType) {
      return { type: "image", data: block.data, mimeType: block.mimeType };
    }
    if (block.type === "resource" && typeof block.resource?.text === "string") {
      return { type: "text", text: `[resource ${block.resource.uri ?? ""}]\n${block.resource.text}` };
    }
    if (block.type === "resource_link")
      return { type: "text", text: `[resource link ${block.name ?? ""} ${block.uri ?? ""}]` };
    return { type: "text", text: `[${block.type} content${block.mimeType ? ` (${block.mimeType})` : ""} not shown]` };
  });
}
