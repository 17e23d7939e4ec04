import type { Model } from "../../model/model.js";
import type { StreamFn } from "../../stream/stream-fn.js";

/**
 * TACO, tool-output compression (seed 002): a large result of a compressible tool is summarised by a
 * fast model before it enters the transcript. Off by default.
 */
export interface ToolOutputCompressionConfig {
  /** Default false (opt-in). */
  enabled?: boolean;
  /** Results estimated above this many tokens are compressed; shorter ones pass untouched. Default 2 000. */
  thresholdTokens?: number;
  /** Size the summariser is asked to stay under. Default 500. */
  targetTokens?: number;
  /** Tools whose results may be compressed. Default ["exec", "web_fetch", "read_file"] (MCP tools are never in it by default). */
  compressibleTools?: readonly string[];
  /** The fast model that summarises. Default: the run's model. */
  model?: Model;
  /** StreamFn for the summary call. Default: the run's streamFn. */
  streamFn?: StreamFn;
  /** A summary call taking longer than this is abandoned and the raw output kept. Default 30 000 ms. */
  timeoutMs?: number;
}

/** The defaults of seed 002's `[tools.taco]`, with Chorus's tool names (shell → exec, web_scrape → web_fetch, read → read_file). */
export const TOOL_OUTPUT_COMPRESSION_DEFAULTS = {
  thresholdTokens: 2_000,
  targetTokens: 500,
  compressibleTools: ["exec", "web_fetch", "read_file"] as readonly string[],
  timeoutMs: 30_000,
} as const;

/** The summariser's instructions (seed 002's TACO prompt). */
export function compressionPrompt(targetTokens: number): string {
  return (
    "You are a concise tool-output summarizer. Preserve all data values, file paths, exit codes, and structured " +
    `content. Remove verbose headers and repeated patterns. Target: under ${targetTokens} tokens. ` +
    "Write only the summary."
  );
}

/** Prefix of a compressed result's text, so the model knows it reads a summary. */
export function compressedNote(rawTokens: number, compressedTokens: number): string {
  return `[Tool output compressed from about ${rawTokens} to ${compressedTokens} tokens; values, paths and exit codes kept]\n`;
}
