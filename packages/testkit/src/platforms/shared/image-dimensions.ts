/** What a platform reads off an uploaded image: its format and size in pixels. */
export interface ImageDimensions {
  readonly mimeType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  readonly width: number;
  readonly height: number;
}

/**
 * The format and pixel size of a PNG, JPEG, GIF or WebP, read from its header as a platform's image processing does.
 * Contract: never throws; undefined for bytes that are none of these (a platform refuses them as a photo).
 */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString("latin1", 12, 16) === "IHDR") {
    return { mimeType: "image/png", width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  }
  if (view.length >= 10 && view.toString("latin1", 0, 4) === "GIF8") {
    return { mimeType: "image/gif", width: view.readUInt16LE(6), height: view.readUInt16LE(8) };
  }
  if (view.length >= 30 && view.toString("latin1", 0, 4) === "RIFF" && view.toString("latin1", 8, 12) === "WEBP") {
    return webpDimensions(view);
  }
  if (view.length >= 4 && view[0] === 0xff && view[1] === 0xd8) return jpegDimensions(view);
  return undefined;
}

// A JPEG's size is in its first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC).
function jpegDimensions(view: Buffer): ImageDimensions | undefined {
  let at = 2;
  while (at + 9 <= view.length) {
    if (view[at] !== 0xff) return undefined;
    const marker = view[at + 1] ?? 0;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = view.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { mimeType: "image/jpeg", height: view.readUInt16BE(at + 5), width: view.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  // A JPEG cut short of its frame header (a test's few bytes): still a JPEG, of unknown size.
  return { mimeType: "image/jpeg", width: 0, height: 0 };
}

function webpDimensions(view: Buffer): ImageDimensions {
  const chunk = view.toString("latin1", 12, 16);
  if (chunk === "VP8X") {
    return { mimeType: "image/webp", width: 1 + view.readUIntLE(24, 3), height: 1 + view.readUIntLE(27, 3) };
  }
  if (chunk === "VP8L") {
    const bits = view.readUInt32LE(21);
    return { mimeType: "image/webp", width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return { mimeType: "image/webp", width: view.readUInt16LE(26) & 0x3fff, height: view.readUInt16LE(28) & 0x3fff };
}
