import type { FetchAttachmentOptions, FetchedAttachment } from "@chorus/channel";
import {
  type AttachmentContent,
  type AttachmentSource,
  describeAttachment,
  type Model,
  type UserContent,
} from "@chorus/core";
import type { AttachmentCache } from "../cache/attachment-cache.js";
import type { AgentMedia } from "../config/media-config.js";
import {
  BAD_IMAGE,
  BAD_PDF,
  fetchProblem,
  HUGE_IMAGE,
  NO_TRANSCRIPTION,
  NO_VISION,
  overSizeProblem,
  TRANSCRIPTION_FAILED,
} from "./attachment-problems.js";
import { pdfText } from "./pdf-text.js";
import { ImageRejectedError, prepareImage } from "./prepare-image.js";
import { sniffType } from "./sniff-type.js";
import { transcribeAudio } from "./transcribe-audio.js";

/** What reading one attachment needs. */
export interface AttachmentReaderDeps {
  readonly cache: AttachmentCache;
  /** Downloads through the channel that received it (its credentials, its hosts). */
  fetch(source: AttachmentSource, options: FetchAttachmentOptions): Promise<FetchedAttachment>;
}

/** One attachment as the model gets it, and the sentence the chat hears when it could not be read. */
export interface AttachmentReading {
  readonly content: UserContent[];
  readonly problem?: string;
}

/** PDFs the providers take as documents: Anthropic's limit is 32 MB and 100 pages. */
const MAX_DOCUMENT_BYTES = 30 * 1024 * 1024;
const PDF_READ = { maxPages: 300, timeoutMs: 30_000 };

/** The cache key of a platform file: the same file sent twice is downloaded once. */
export function sourceKeyOf(source: AttachmentSource): string {
  return `${source.channel}:${source.accountId}:${source.uniqueId ?? source.id}`;
}

/**
 * Reads one attachment for `model`: its bytes from the cache or its channel (re-fetched when the cache lost them),
 * sniffed, then an image (resized to the limits), a PDF (as a document where the model reads them, else its text),
 * a voice note's transcript, a text file's text, or a line naming what could not be read.
 * Contract: never rejects; a failure is a `problem` sentence plus a line in `content` saying the file was not read.
 */
export async function readAttachment(
  part: AttachmentContent,
  media: AgentMedia,
  model: Model,
  deps: AttachmentReaderDeps,
): Promise<AttachmentReading> {
  const { limits } = media;
  if (part.sizeBytes !== undefined && part.sizeBytes > limits.maxFileBytes) {
    return notRead(part, "over the size limit", overSizeProblem(part.name, part.sizeBytes, limits.maxFileBytes));
  }
  const platform = platformName(part.source.channel);
  let file: { bytes: () => Promise<Uint8Array>; sha256: string; mimeType: string; sizeBytes: number };
  try {
    file = await cachedFile(part, limits.maxFileBytes, deps);
  } catch (error) {
    return notRead(part, "could not be downloaded", fetchProblem(part.name, platform, error));
  }
  const { mimeType } = file;
  const notReadFile = (why: string, problem: string) =>
    notRead({ ...part, mimeType, sizeBytes: file.sizeBytes }, why, problem);
  if (mimeType.startsWith("image/")) {
    if (!model.capabilities.images) return notReadFile("this model cannot see images", NO_VISION(part.name));
    const variant = `image-${limits.maxImageEdge}`;
    try {
      const prepared = await derive(deps.cache, file.sha256, variant, async () => {
        const image = await prepareImage(await file.bytes(), mimeType, {
          maxEdge: limits.maxImageEdge,
          maxPixels: limits.maxImagePixels,
        });
        // The type on the first line, then the bytes (one file per derived image).
        return Buffer.concat([Buffer.from(`${image.mimeType}\n`), image.bytes]);
      });
      const cut = prepared.indexOf(10);
      const preparedType = new TextDecoder().decode(prepared.subarray(0, cut));
      return {
        content: [
          { type: "text", text: `[image: ${part.name}]` },
          { type: "image", mimeType: preparedType, data: Buffer.from(prepared.subarray(cut + 1)).toString("base64") },
        ],
      };
    } catch (error) {
      const huge = error instanceof ImageRejectedError && error.reason === "too-many-pixels";
      return notReadFile("not a readable image", huge ? HUGE_IMAGE(part.name) : BAD_IMAGE(part.name));
    }
  }
  if (mimeType === "application/pdf") {
    if (model.capabilities.documents === true && file.sizeBytes <= MAX_DOCUMENT_BYTES) {
      const data = Buffer.from(await file.bytes()).toString("base64");
      return { content: [{ type: "document", mimeType, data, name: part.name }] };
    }
    try {
      const text = await derive(deps.cache, file.sha256, "pdf-text", async () => {
        const read = await pdfText(await file.bytes(), { ...PDF_READ, maxChars: limits.maxTextChars });
        const note = read.pagesRead < read.pages ? `\n[read ${read.pagesRead} of ${read.pages} pages]` : "";
        return new TextEncoder().encode(read.text + note);
      });
      return textContent(part, "document", new TextDecoder().decode(text), limits.maxTextChars);
    } catch {
      return notReadFile("the PDF could not be read", BAD_PDF(part.name));
    }
  }
  if (
    mimeType.startsWith("audio/") ||
    mimeType === "application/ogg" ||
    part.kind === "voice" ||
    part.kind === "audio"
  ) {
    const transcription = media.transcription;
    if (transcription === undefined) {
      return notReadFile("no transcription is configured", NO_TRANSCRIPTION(part.name));
    }
    try {
      const variant = `transcript-${transcription.model
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, "-")
        .slice(0, 28)}`;
      const text = await derive(deps.cache, file.sha256, variant, async () => {
        const transcript = await transcribeAudio(await file.bytes(), { name: part.name, mimeType }, transcription);
        return new TextEncoder().encode(transcript);
      });
      const what = part.kind === "voice" ? "voice note" : "audio";
      return {
        content: [{ type: "text", text: `[${what} ${part.name}, transcribed]: ${new TextDecoder().decode(text)}` }],
      };
    } catch {
      return notReadFile("could not be transcribed", TRANSCRIPTION_FAILED(part.name));
    }
  }
  if (mimeType.startsWith("text/") || mimeType === "application/json" || mimeType === "application/xml") {
    return textContent(part, "file", new TextDecoder().decode(await file.bytes()), limits.maxTextChars);
  }
  return {
    content: [{ type: "text", text: describeAttachment({ ...part, mimeType }, "a kind of file I cannot read") }],
  };
}

async function cachedFile(
  part: AttachmentContent,
  maxBytes: number,
  deps: AttachmentReaderDeps,
): Promise<{ bytes: () => Promise<Uint8Array>; sha256: string; mimeType: string; sizeBytes: number }> {
  const key = sourceKeyOf(part.source);
  const known = await deps.cache.source(key);
  const download = async (): Promise<Uint8Array> => {
    const fetched = await deps.fetch(part.source, { maxBytes });
    return fetched.bytes;
  };
  if (known !== undefined) {
    let held: Uint8Array | undefined;
    return {
      ...known,
      // Only read when something must be made from them: a derived file (resized image, transcript) may be enough.
      bytes: async () => {
        held ??= (await deps.cache.blob(known.sha256)) ?? (await refetched(download, deps.cache));
        return held;
      },
    };
  }
  const bytes = await download();
  const sha256 = await deps.cache.putBlob(bytes);
  const mimeType = await sniffType(bytes);
  await deps.cache.rememberSource(key, { sha256, mimeType, sizeBytes: bytes.byteLength });
  return { bytes: async () => bytes, sha256, mimeType, sizeBytes: bytes.byteLength };
}

/** The cache lost the bytes (evicted): fetched from the platform again and kept. */
async function refetched(download: () => Promise<Uint8Array>, cache: AttachmentCache): Promise<Uint8Array> {
  const bytes = await download();
  await cache.putBlob(bytes);
  return bytes;
}

async function derive(
  cache: AttachmentCache,
  sha256: string,
  variant: string,
  make: () => Promise<Uint8Array>,
): Promise<Uint8Array> {
  const kept = await cache.derived(sha256, variant);
  if (kept !== undefined) return kept;
  const made = await make();
  await cache.putDerived(sha256, variant, made);
  return made;
}

function textContent(part: AttachmentContent, what: string, text: string, maxChars: number): AttachmentReading {
  const cut =
    text.length > maxChars ? `${text.slice(0, maxChars)}\n[cut: ${text.length - maxChars} more characters]` : text;
  return { content: [{ type: "text", text: `[${what}: ${part.name}]\n${cut}` }] };
}

function notRead(part: AttachmentContent, why: string, problem: string): AttachmentReading {
  return { content: [{ type: "text", text: describeAttachment(part, `not read: ${why}`) }], problem };
}

function platformName(channel: string): string {
  const names: Record<string, string> = {
    telegram: "Telegram",
    discord: "Discord",
    slack: "Slack",
    webchat: "WebChat",
  };
  return names[channel] ?? channel;
}
