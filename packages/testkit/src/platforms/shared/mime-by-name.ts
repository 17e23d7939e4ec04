/** The MIME type a platform tells from a file's extension, as chat platforms do for an upload sent as octet-stream. */
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  md: "text/markdown",
  json: "application/json",
  html: "text/html",
  zip: "application/zip",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  mp4: "video/mp4",
};

/** The extension of a file name, lower case, without the dot; undefined when it has none. */
export function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : undefined;
}

/** The MIME type for a file name; `application/octet-stream` for an extension not known here. */
export function mimeTypeOfName(name: string): string {
  return MIME_BY_EXTENSION[extensionOf(name) ?? ""] ?? "application/octet-stream";
}
