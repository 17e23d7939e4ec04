import type { ToolOutput } from "@chorus/core";

/** A text-only result. */
export function textOutput<TDetails = unknown>(text: string, details?: TDetails): ToolOutput<TDetails> {
  return details === undefined ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], details };
}

/** A text-only error result the model sees. */
export function errorOutput(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: true };
}
