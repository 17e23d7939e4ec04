import { createHash } from "node:crypto";
import { imageFacts } from "./image-facts.js";

/** An image a request carried, decoded. */
export interface RecordedImage {
  /** The media type the request declared (`media_type`, or the data URL's). */
  mediaType: string;
  /** The decoded bytes; empty when the image was sent as a link (`url`). */
  bytes: Buffer;
  byteLength: number;
  /** Hex sha256 of `bytes`. */
  sha256: string;
  /** The size in pixels, when the header is a PNG, JPEG, GIF or WebP one. */
  width?: number;
  height?: number;
  /** Set when the image was sent as a link instead of bytes. */
  url?: string;
}

/** A document (file) a request carried, decoded. */
export interface RecordedDocument {
  /** The declared media type (`media_type`, or the data URL's); `text/plain` for an Anthropic text document. */
  mediaType: string;
  /** The name the model was shown: Anthropic `title`, OpenAI `filename`. */
  name?: string;
  /** The decoded bytes; empty when the file was sent as a link or an uploaded file's id. */
  bytes: Buffer;
  byteLength: number;
  sha256: string;
  /** Set when the file was sent by link (`url`, `file_url`) or by id (`file_id`). */
  url?: string;
  fileId?: string;
}

/** The images and documents of one request, in the order the model reads them. */
export interface MediaParts {
  images: RecordedImage[];
  documents: RecordedDocument[];
}

type Part = Record<string, unknown>;

/**
 * The images and documents a recorded request sent the model, whichever API it spoke: Anthropic `image` / `document`
 * blocks (tool results included), Chat Completions `image_url` / `file` parts, Responses `input_image` / `input_file`
 * parts (function-call outputs included). Contract: pure, never throws; a request without media gives empty lists.
 * @example const { images, documents } = mediaParts(fake.requests[0]!); // or fake.requests[0]!.images
 */
export function mediaParts(request: { body: Record<string, unknown> }): MediaParts {
  const out: MediaParts = { images: [], documents: [] };
  const root = request.body.messages ?? request.body.input;
  if (Array.isArray(root)) for (const item of root) walk(item, out);
  return out;
}

/** Descends only into what holds message content (`content`, `output`), never into tool arguments. */
function walk(value: unknown, out: MediaParts): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, out);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const part = value as Part;
  const image = imageOf(part);
  if (image) out.images.push(image);
  const document = documentOf(part);
  if (document) out.documents.push(document);
  if (Array.isArray(part.content)) walk(part.content, out);
  if (Array.isArray(part.output)) walk(part.output, out);
}

function imageOf(part: Part): RecordedImage | undefined {
  if (part.type === "image") {
    const source = (part.source ?? {}) as Part;
    if (source.type === "base64") return image(String(source.media_type ?? ""), base64(source.data));
    if (source.type === "url") return { ...image("", Buffer.alloc(0)), url: String(source.url ?? "") };
    return undefined;
  }
  if (part.type === "image_url") return imageFromUrl(String((part.image_url as Part | undefined)?.url ?? ""));
  if (part.type === "input_image" && typeof part.image_url === "string") return imageFromUrl(part.image_url);
  return undefined;
}

function imageFromUrl(url: string): RecordedImage {
  const data = dataUrl(url);
  return data ? image(data.mediaType, data.bytes) : { ...image("", Buffer.alloc(0)), url };
}

function image(mediaType: string, bytes: Buffer): RecordedImage {
  const facts = bytes.length > 0 ? imageFacts(bytes) : undefined;
  return {
    mediaType,
    bytes,
    byteLength: bytes.length,
    sha256: sha256(bytes),
    ...(facts ? { width: facts.width, height: facts.height } : {}),
  };
}

function documentOf(part: Part): RecordedDocument | undefined {
  if (part.type === "document") {
    const source = (part.source ?? {}) as Part;
    const name = typeof part.title === "string" ? { name: part.title } : {};
    if (source.type === "base64") return { ...document(String(source.media_type ?? ""), base64(source.data)), ...name };
    if (source.type === "text") {
      return {
        ...document(String(source.media_type ?? "text/plain"), Buffer.from(String(source.data ?? ""))),
        ...name,
      };
    }
    if (source.type === "url") return { ...document("", Buffer.alloc(0)), url: String(source.url ?? ""), ...name };
    return undefined;
  }
  if (part.type === "file" || part.type === "input_file") {
    const fields = (part.type === "file" ? (part.file ?? {}) : part) as Part;
    const name = typeof fields.filename === "string" ? { name: fields.filename } : {};
    const data = typeof fields.file_data === "string" ? dataUrl(fields.file_data) : undefined;
    if (data) return { ...document(data.mediaType, data.bytes), ...name };
    return {
      ...document("", Buffer.alloc(0)),
      ...name,
      ...(typeof fields.file_url === "string" ? { url: fields.file_url } : {}),
      ...(typeof fields.file_id === "string" ? { fileId: fields.file_id } : {}),
    };
  }
  return undefined;
}

function document(mediaType: string, bytes: Buffer): RecordedDocument {
  return { mediaType, bytes, byteLength: bytes.length, sha256: sha256(bytes) };
}

/** `data:<type>;base64,<data>` → its type and bytes; undefined for any other URL. */
function dataUrl(url: string): { mediaType: string; bytes: Buffer } | undefined {
  const match = /^data:([^;,]*)((?:;[^;,]*)*?);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? "", bytes: base64(match[3]) };
}

function base64(data: unknown): Buffer {
  return typeof data === "string" ? Buffer.from(data, "base64") : Buffer.alloc(0);
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}
