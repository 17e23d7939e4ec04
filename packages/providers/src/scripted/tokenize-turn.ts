import type { ScriptedBlock, ScriptedReply, ScriptedTurn } from "@chorus/core/testing";

/** How the scripted provider splits text into deltas. */
export type Chunking = "word" | "char" | "none";

/** Splits text into the deltas a real model would stream. */
export function chunkText(text: string, chunking: Chunking): string[] {
  if (chunking === "none" || text.length === 0) return [text];
  if (chunking === "char") return [...text];
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/**
 * Rewrites one turn so its text streams in chunks with a delay per token.
 * Contract: content, order, ids, usage and faults are unchanged; only chunking and timing differ.
 */
export function tokenizeTurn(turn: ScriptedTurn, chunking: Chunking, tokenDelayMs: number | undefined): ScriptedTurn {
  if (typeof turn === "string") return tokenizeReply({ text: turn }, chunking, tokenDelayMs);
  if (!("fault" in turn)) return tokenizeReply(turn, chunking, tokenDelayMs);
  switch (turn.fault) {
    case "stall":
      return turn.resume ? { ...turn, resume: tokenizeReply(turn.resume, chunking, tokenDelayMs) } : turn;
    case "broken":
    case "hang":
    case "error":
      return turn.partial ? { ...turn, partial: tokenizeReply(turn.partial, chunking, tokenDelayMs) } : turn;
    default:
      return turn;
  }
}

function tokenizeReply(reply: ScriptedReply, chunking: Chunking, tokenDelayMs: number | undefined): ScriptedReply {
  const blocks = orderedBlocks(reply).map((block) =>
    block.type === "text" && !block.chunks ? { ...block, chunks: chunkText(block.text, chunking) } : block,
  );
  const out: ScriptedReply = { ...reply, blocks };
  delete out.text;
  delete out.thinking;
  delete out.toolCalls;
  const delay = reply.tokenDelayMs ?? tokenDelayMs;
  if (delay !== undefined) out.tokenDelayMs = delay;
  return out;
}

/** The core's block order: explicit `blocks`, else thinking, text, tool calls. */
function orderedBlocks(reply: ScriptedReply): ScriptedBlock[] {
  if (reply.blocks) return reply.blocks;
  const blocks: ScriptedBlock[] = [];
  if (reply.thinking !== undefined) {
    const t = typeof reply.thinking === "string" ? { thinking: reply.thinking } : reply.thinking;
    blocks.push({ type: "thinking", ...t });
  }
  if (reply.text !== undefined) blocks.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls ?? []) blocks.push({ ...call, type: "toolCall" });
  return blocks;
}
