import type { Metadata } from "sharp";

/** sharp (libvips) is loaded on the first image, not with the bot: most starts never see one. */
const loadSharp = async () => (await import("sharp")).default;

/** What a provider takes at most: Anthropic refuses images over 5 MB (base64 ≈ 4/3 of the bytes). */
const MAX_IMAGE_BYTES = 3_700_000;
const PASSED_AS_IS = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** An image ready for the model. */
export interface PreparedImage {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  readonly width: number;
  readonly height: number;
}

/** Why an image could not be prepared. */
export class ImageRejectedError extends Error {
  override readonly name = "ImageRejectedError";
  constructor(
    readonly reason: "too-many-pixels" | "unreadable",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The image as the model should get it: unchanged when it is JPEG, PNG, GIF or WebP within `maxEdge` pixels a side
 * and the providers' byte limit; else resized to fit `maxEdge` (aspect kept, first frame of an animation) and
 * re-encoded (PNG keeps transparency, else JPEG). An image with more than `maxPixels` pixels is refused before it is
 * decoded. Contract: rejects with ImageRejectedError for a corrupt image or one over the pixel cap.
 */
export async function prepareImage(
  bytes: Uint8Array,
  mimeType: string,
  limits: { readonly maxEdge: number; readonly maxPixels: number },
): Promise<PreparedImage> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError("unreadable", "the image is damaged or in a format I cannot read");
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (width === 0 || height === 0) throw new ImageRejectedError("unreadable", "the image has no size");
  if (width * height > limits.maxPixels) {
    throw new ImageRejectedError("too-many-pixels", `the image has ${width}×${height} pixels, more than allowed`);
  }
  const fits = Math.max(width, height) <= limits.maxEdge && bytes.byteLength <= MAX_IMAGE_BYTES;
  if (fits && PASSED_AS_IS.has(mimeType) && (meta.pages ?? 1) === 1) return { bytes, mimeType, width, height };
  try {
    const pipeline = sharp(bytes, { limitInputPixels: limits.maxPixels, pages: 1 })
      .rotate()
      .resize({ width: limits.maxEdge, height: limits.maxEdge, fit: "inside", withoutEnlargement: true });
    const encoded =
      meta.hasAlpha === true
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true })
        : await pipeline.jpeg({ quality: 85 }).toBuffer({ resolveWithObject: true });
    return {
      bytes: new Uint8Array(encoded.data.buffer, encoded.data.byteOffset, encoded.data.byteLength),
      mimeType: meta.hasAlpha === true ? "image/png" : "image/jpeg",
      width: encoded.info.width,
      height: encoded.info.height,
    };
  } catch {
    throw new ImageRejectedError("unreadable", "the image is damaged or in a format I cannot read");
  }
}
