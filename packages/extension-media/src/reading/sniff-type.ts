/** Types read as text when the bytes are valid UTF-8 without NUL bytes (file-type recognises only binary formats). */
const TEXT_FALLBACK = "text/plain";

/**
 * The MIME type of `bytes`, decided by their content, never by the file's name or the platform's word: file-type's
 * magic numbers for binary formats, else `text/plain` for valid UTF-8 text, else `application/octet-stream`.
 * Contract: pure apart from reading the bytes.
 */
export async function sniffType(bytes: Uint8Array): Promise<string> {
  // Loaded on the first file, not with the bot.
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(bytes);
  if (found !== undefined) return found.mime;
  return looksLikeText(bytes) ? TEXT_FALLBACK : "application/octet-stream";
}

function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) return false;
  try {
    // A cut in the middle of a multi-byte character at the sample's end is not an error: `stream` keeps it pending.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: head.length < bytes.length });
    return true;
  } catch {
    return false;
  }
}
