import { imageFacts } from "./image-facts.js";
import type { WireErrorResponse } from "./wire-action.js";

type Block = { type?: unknown; text?: unknown; content?: unknown; source?: unknown };
type Source = { type?: unknown; media_type?: unknown; data?: unknown };

const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/** The real API's limit on one image's base64 data. */
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
/** Pixels on a side: 8000, or 2000 when a request has more than 20 images. */
const MAX_SIDE = 8000;
const MAX_SIDE_MANY = 2000;
const MANY_IMAGES = 20;

/**
 * The Messages API's checks of an image or document block: a base64 image of a supported media type, its base64 at
 * most 5 MB, at most 8000 px on a side (2000 when the request has more than 20 images), bytes that are the declared
 * format when they are a recognisable image at all (this fake lets bytes no reader recognises through; the real API
 * would say it could not process them); a base64 document is `application/pdf` with a `%PDF-` header.
 */
function mediaProblem(block: Block, path: string, imageCount: number): string | undefined {
  const source = (block.source ?? {}) as Source;
  if (source.type !== "base64") return undefined;
  const data = typeof source.data === "string" ? source.data : "";
  if (block.type === "image") {
    if (typeof source.media_type !== "string" || !IMAGE_TYPES.includes(source.media_type)) {
      return `${path}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
    }
    if (data.length > MAX_IMAGE_BASE64) {
      return `${path}.image.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64} bytes`;
    }
    const facts = imageFacts(Buffer.from(data.slice(0, 128 * 1024), "base64"));
    if (facts === undefined) return undefined;
    if (facts.mediaType !== source.media_type) {
      return `${path}.image.source.base64.data: The image was specified using the ${source.media_type} media type, but the image appears to be a ${facts.mediaType} image`;
    }
    const many = imageCount > MANY_IMAGES;
    const limit = many ? MAX_SIDE_MANY : MAX_SIDE;
    if (facts.width > limit || facts.height > limit) {
      return `${path}.image.source.base64.data: At least one of the image dimensions exceed max allowed size${many ? " for many-image requests" : ""}: ${limit} pixels`;
    }
  }
  if (block.type === "document") {
    if (source.media_type !== "application/pdf") {
      return `${path}.document.source.base64.media_type: Input should be 'application/pdf'`;
    }
    // PDF readers look for the header anywhere in the first 1024 bytes.
    if (!Buffer.from(data.slice(0, 1368), "base64").toString("latin1").includes("%PDF-")) {
      return `${path}.document.source.base64.data: The PDF specified was not valid.`;
    }
  }
  return undefined;
}

function countImages(blocks: readonly Block[]): number {
  let count = 0;
  for (const block of blocks) {
    if (block.type === "image") count++;
    else if (block.type === "tool_result" && Array.isArray(block.content))
      count += countImages(block.content as Block[]);
  }
  return count;
}

function blocksProblem(blocks: readonly Block[], path: string, imageCount = 0): string | undefined {
  for (const [index, block] of blocks.entries()) {
    const media = mediaProblem(block, `${path}.${index}`, imageCount);
    if (media !== undefined) return media;
    if (block.type === "text" && typeof block.text === "string") {
      if (block.text === "") return `${path}.${index}.text: text content blocks must be non-empty`;
      if (block.text.trim() === "")
        return `${path}.${index}.text: text content blocks must contain non-whitespace text`;
    }
    if (block.type === "tool_result" && Array.isArray(block.content)) {
      const nested = blocksProblem(block.content as Block[], `${path}.${index}.content`, imageCount);
      if (nested !== undefined) return nested;
    }
  }
  return undefined;
}

/**
 * The Messages API's own checks of a request's messages that Chorus must never trip: an empty or whitespace-only text
 * block, a message with no content (the optional final assistant message aside), and an image or document block the
 * API cannot take (see `mediaProblem`). The real API answers 400
 * `invalid_request_error` before any generation, with messages like these.
 * Contract: undefined for a request the real API accepts on these points.
 */
export function anthropicRequestProblem(body: Record<string, unknown>): WireErrorResponse | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  const imageCount = messages.reduce(
    (sum, message) => sum + (Array.isArray(message.content) ? countImages(message.content as Block[]) : 0),
    0,
  );
  for (const [index, message] of messages.entries()) {
    const last = index === messages.length - 1 && message.role === "assistant";
    const content = message.content;
    let problem: string | undefined;
    if (typeof content === "string") {
      if (content === "" && !last)
        problem = `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
    } else if (Array.isArray(content)) {
      if (content.length === 0 && !last) {
        problem = `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
      } else problem = blocksProblem(content as Block[], `messages.${index}.content`, imageCount);
    }
    if (problem !== undefined) {
      return {
        status: 400,
        headers: { "request-id": "req_fake", "x-should-retry": "false" },
        body: { type: "error", error: { type: "invalid_request_error", message: problem }, request_id: "req_fake" },
      };
    }
  }
  return undefined;
}
