/** Image types a browser shows inline without running anything (not SVG, which is a document with scripts). */
const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"]);

/** `type/subtype`, lower-case, without parameters. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * A declared MIME type fit for a header: lower-case `type/subtype` without parameters.
 * Contract: pure; undefined for an absent or malformed value.
 */
export function safeMimeType(value: string | undefined): string | undefined {
  const bare = value?.split(";")[0]?.trim().toLowerCase();
  return bare !== undefined && MIME_TYPE.test(bare) ? bare : undefined;
}

/** Whether a file of this type is shown inline (a raster image); everything else is downloaded. Contract: pure. */
export function inlineImageType(mimeType: string): boolean {
  return INLINE_IMAGES.has(mimeType);
}

/**
 * The name of an uploaded file as kept and shown: its last path part, without control characters, at most 200
 * characters. Contract: pure; `file` when nothing is left.
 */
export function uploadName(value: string | null | undefined): string {
  const last = (value ?? "").split(/[/\\]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const clean = Array.from(last.replace(/[\u0000-\u001f\u007f]/g, "").trim())
    .slice(0, 200)
    .join("");
  return clean === "" || clean === "." || clean === ".." ? "file" : clean;
}
