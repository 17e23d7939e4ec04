import type { ToolCategory } from "../tools/tool-types.js";

/** Why a tool call was stopped or never run. */
export type ToolAbortKind = "user" | "steering" | "sibling_error" | "sibling_denied" | "timeout" | "discarded";

/** The reason put on a tool's aborted signal (`ctx.signal.reason`), and the text of its synthetic result. */
export class ToolAbortError extends Error {
  override readonly name = "ToolAbortError";
  constructor(
    readonly kind: ToolAbortKind,
    message: string,
  ) {
    super(message);
  }
}

/** The synthetic result text for each abort kind (seeds 000 and 004). */
export function abortMessage(kind: ToolAbortKind, timeout?: { ms: number; category: ToolCategory }): string {
  switch (kind) {
    case "user":
      return "Tool execution was aborted: user interrupted";
    case "steering":
      return "tool call cancelled: user requested steering interrupt";
    case "sibling_error":
      return "Tool execution was aborted: a sibling tool call failed";
    case "sibling_denied":
      return "Tool call skipped: a sibling tool call in the same batch was denied";
    case "timeout":
      return `Tool execution was aborted: timed out after ${formatSeconds(timeout?.ms ?? 0)} (${timeout?.category ?? "tool"} timeout)`;
    case "discarded":
      return "Tool execution was aborted: the model response that issued it failed and was discarded";
  }
}

/**
 * The synthetic result of a call skipped because a sibling of its batch was denied (seed 001 "Tool Call Processing"),
 * naming the denied tool so the model sees why. Contract: pure.
 * @example siblingDeniedMessage("exec") // 'Tool call skipped: a sibling tool call in the same batch ("exec") was denied'
 */
export function siblingDeniedMessage(deniedToolName: string): string {
  return `Tool call skipped: a sibling tool call in the same batch (${JSON.stringify(deniedToolName)}) was denied`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Default per-category timeouts (seed 003). */
export const DEFAULT_TOOL_TIMEOUTS: Readonly<Record<ToolCategory, number>> = {
  exec: 600_000,
  mcp: 120_000,
  info: 30_000,
  edit: 30_000,
};
