import type { AssistantMessage, ToolResultMessage } from "../../messages/message-types.js";
import type { StreamContext } from "../../stream/stream-fn.js";
import { estimateMessageTokens } from "../token-estimate.js";
import { compressedNote, compressionPrompt, TOOL_OUTPUT_COMPRESSION_DEFAULTS } from "./compression-config.js";

/** Why a result was left as it was, or that it was compressed. */
export type CompressionOutcome =
  | { kind: "compressed"; result: ToolResultMessage }
  | { kind: "skipped"; reason: "approved" | "not_compressible" | "under_threshold" | "not_text" }
  | { kind: "failed"; error: string };

/** What one compression needs: the settings and the guarded model call. */
export interface CompressionRequest {
  result: ToolResultMessage;
  /** The call was approved by a person (an `ask`): its result is never summarised. */
  approved: boolean;
  thresholdTokens?: number;
  targetTokens?: number;
  compressibleTools?: readonly string[];
  modelId: string;
  /** Makes the summary call; resolves to the summariser's reply. */
  complete: (context: StreamContext) => Promise<AssistantMessage>;
}

/**
 * Decides whether a tool result is compressed and, if so, summarises it (seed 002 TACO).
 * Contract: never throws; never touches an approved result or one carrying images; any failure (error reply, empty or
 * longer summary, thrown call) is `failed`, and the caller keeps the raw result.
 */
export async function compressToolOutput(req: CompressionRequest): Promise<CompressionOutcome> {
  const { result } = req;
  if (req.approved) return { kind: "skipped", reason: "approved" };
  const tools = req.compressibleTools ?? TOOL_OUTPUT_COMPRESSION_DEFAULTS.compressibleTools;
  if (!tools.includes(result.toolName)) return { kind: "skipped", reason: "not_compressible" };
  if (result.content.some((part) => part.type !== "text")) return { kind: "skipped", reason: "not_text" };
  const rawTokens = estimateMessageTokens(result);
  if (rawTokens <= (req.thresholdTokens ?? TOOL_OUTPUT_COMPRESSION_DEFAULTS.thresholdTokens)) {
    return { kind: "skipped", reason: "under_threshold" };
  }
  const raw = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  const target = req.targetTokens ?? TOOL_OUTPUT_COMPRESSION_DEFAULTS.targetTokens;
  let reply: AssistantMessage;
  try {
    reply = await req.complete({
      systemPrompt: compressionPrompt(target),
      messages: [{ role: "user", content: `Tool output:\n${raw}`, timestamp: Date.now() }],
    });
  } catch (error) {
    return { kind: "failed", error: `summariser failed: ${(error as Error).message}` };
  }
  if (reply.stopReason === "error" || reply.stopReason === "aborted") {
    return { kind: "failed", error: `summariser failed: ${reply.errorMessage ?? reply.stopReason}` };
  }
  const summary = reply.content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("")
    .trim();
  if (!summary) return { kind: "failed", error: "summariser returned an empty summary" };
  const summaryTokens = Math.ceil(summary.length / 4);
  if (summaryTokens >= rawTokens) return { kind: "failed", error: "the summary was not shorter than the output" };
  const text = compressedNote(rawTokens, summaryTokens) + summary;
  const compressed: ToolResultMessage = {
    ...result,
    content: [{ type: "text", text }],
    compressed: { by: "taco", model: req.modelId, rawTokens, compressedTokens: summaryTokens, raw: result.content },
  };
  return { kind: "compressed", result: compressed };
}
