import type { AttachmentKind } from "@chorus/channel";

/** The fields of a Discord attachment that tell what it is. */
export interface DiscordAttachmentKindFields {
  readonly contentType: string | null;
  /** Set on a voice message's audio (with its duration): what tells it from an audio file. */
  readonly waveform?: string | null;
}

/**
 * What a Discord attachment is: a voice message (`waveform` set) is `voice`; otherwise `image/*` → image, `audio/*` →
 * audio, `video/*` → video, anything else a document.
 * Contract: never throws.
 */
export function discordAttachmentKind(file: DiscordAttachmentKindFields): AttachmentKind {
  const mime = (file.contentType ?? "").toLowerCase();
  if (file.waveform !== undefined && file.waveform !== null) return "voice";
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}
