import type { AttachmentKind } from "@chorus/channel";

/** The fields of a Slack `files` entry that tell what it is. */
export interface SlackFileKindFields {
  readonly mimetype?: string;
  readonly filetype?: string;
  readonly subtype?: string;
}

/** Slack's file types of the clips its apps record (an audio clip is `m4a` from a phone, `webm` from a browser). */
const CLIP_FILETYPES = new Set(["m4a", "webm"]);

/**
 * What a shared Slack file is: a voice clip recorded in Slack (`subtype: slack_audio`, or audio of a clip's file type)
 * is `voice`; otherwise `image/*` → image, `audio/*` → audio, `video/*` → video, anything else a document.
 * Contract: never throws.
 */
export function slackAttachmentKind(file: SlackFileKindFields): AttachmentKind {
  const mime = (file.mimetype ?? "").toLowerCase();
  if (file.subtype === "slack_audio") return "voice";
  if (mime.startsWith("audio/")) return CLIP_FILETYPES.has((file.filetype ?? "").toLowerCase()) ? "voice" : "audio";
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/") || file.subtype === "slack_video") return "video";
  return "document";
}
