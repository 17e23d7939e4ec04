/** What an image's first bytes say: its real format and its size in pixels. */
export interface ImageFacts {
  mediaType: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
  width: number;
  height: number;
}

/**
 * Reads an image's format and size from its header (PNG, JPEG, GIF, WebP), without decoding it.
 * Contract: pure, never throws; undefined for bytes that are none of these (or too short to tell).
 */
export function imageFacts(bytes: Uint8Array): ImageFacts | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (buf.length >= 24 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a) {
      return { mediaType: "image/png", width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
    }
    if (buf.length >= 10 && (buf.toString("latin1", 0, 6) === "GIF87a" || buf.toString("latin1", 0, 6) === "GIF89a")) {
      return { mediaType: "image/gif", width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) };
    }
    if (buf.length >= 30 && buf.toString("latin1", 0, 4) === "RIFF" && buf.toString("latin1", 8, 12) === "WEBP") {
      return webpFacts(buf);
    }
    if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return jpegFacts(buf);
  } catch {
    // A header cut short: nothing to tell.
  }
  return undefined;
}

function webpFacts(buf: Buffer): ImageFacts | undefined {
  const chunk = buf.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    return { mediaType: "image/webp", width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    const b1 = buf[22] as number;
    const b2 = buf[23] as number;
    const b3 = buf[24] as number;
    const width = 1 + (((b1 & 0x3f) << 8) | (buf[21] as number));
    const height = 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6));
    return { mediaType: "image/webp", width, height };
  }
  if (chunk === "VP8X") {
    return { mediaType: "image/webp", width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
  }
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegFacts(buf: Buffer): ImageFacts | undefined {
  let at = 2;
  while (at + 9 < buf.length) {
    if (buf[at] !== 0xff) return undefined;
    const marker = buf[at + 1] as number;
    if (marker === 0xff) {
      at++;
      continue;
    }
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { mediaType: "image/jpeg", height: buf.readUInt16BE(at + 5), width: buf.readUInt16BE(at + 7) };
    at += 2 + buf.readUInt16BE(at + 2);
  }
  return undefined;
}
