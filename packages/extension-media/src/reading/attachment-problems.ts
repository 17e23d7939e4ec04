import { AttachmentFetchError } from "@chorus/channel";
import { formatBytes } from "@chorus/core";

/** The sentence the chat hears when a file could not be read; the rest of the message is still answered. */
export function fetchProblem(name: string, platform: string, error: unknown): string {
  if (!(error instanceof AttachmentFetchError)) return `I couldn't get ${name} from ${platform}: something went wrong.`;
  switch (error.reason) {
    case "too-large":
      return `${name} is larger than the limit for one file, so I didn't read it.`;
    case "expired":
      return `I couldn't get ${name} from ${platform} any more: its link expired and could not be renewed.`;
    case "not-found":
      return `I couldn't get ${name} from ${platform}: the file is gone.`;
    case "forbidden":
      return `${platform} didn't let me download ${name}.`;
    case "host-not-allowed":
      return `I didn't download ${name}: its link is not on ${platform}'s own servers.`;
    case "unsupported":
      return `I can't download files from this chat, so I couldn't read ${name}.`;
    case "network":
      return `I couldn't reach ${platform} to get ${name}; send it again in a moment.`;
  }
}

export function overSizeProblem(name: string, sizeBytes: number, maxBytes: number): string {
  return `${name} is ${formatBytes(sizeBytes)}, over the ${formatBytes(maxBytes)} limit for one file, so I didn't read it.`;
}

export function tooManyFilesProblem(skipped: readonly string[], maxFiles: number): string {
  const names =
    skipped.length <= 3 ? skipped.join(", ") : `${skipped.slice(0, 3).join(", ")} and ${skipped.length - 3} more`;
  return `I read only the first ${maxFiles} files of a message; I didn't read ${names}.`;
}

export const NO_VISION = (name: string) => `The model here can't see images, so I couldn't look at ${name}.`;
export const NO_TRANSCRIPTION = (name: string) =>
  `I can't listen to ${name}: no transcription service is set up here. Please send text.`;
export const TRANSCRIPTION_FAILED = (name: string) => `I couldn't transcribe ${name}; please try again or send text.`;
export const BAD_IMAGE = (name: string) => `I couldn't read ${name}: the image is damaged or not an image.`;
export const HUGE_IMAGE = (name: string) => `${name} has too many pixels for me to open, so I didn't look at it.`;
export const BAD_PDF = (name: string) => `I couldn't read ${name}: the PDF is damaged, protected or too big to unpack.`;
