export { MIN_REPLY_LENGTH, renderReplyChunks } from "./render-reply-chunks.js";
export { ReplyChunkError } from "./reply-chunk-error.js";
export { type ChunkLimits, chunkText, fitsLimits } from "./text-chunker.js";
