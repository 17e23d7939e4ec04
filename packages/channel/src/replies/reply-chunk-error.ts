/**
 * Limits too small to split a reply into valid messages.
 * Contract: thrown up front for invalid limits, never after some chunks were produced.
 */
export class ReplyChunkError extends Error {
  override readonly name = "ReplyChunkError";
}
