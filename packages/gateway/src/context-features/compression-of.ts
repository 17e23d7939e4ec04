import type { ToolOutputCompressionTag } from "@chorus/core";

/** What the `tool_activity` event says of a TACO-compressed result (the raw output stays in the transcript only). */
export function compressionOf(tag: ToolOutputCompressionTag): {
  model: string;
  rawTokens: number;
  compressedTokens: number;
} {
  return { model: tag.model, rawTokens: tag.rawTokens, compressedTokens: tag.compressedTokens };
}
