export { AttachmentCache, type SourceEntry, sha256Of } from "./cache/attachment-cache.js";
export { ByteBudget } from "./cache/byte-budget.js";
export {
  type AgentMedia,
  agentMedia,
  type MediaConfig,
  type MediaLimits,
  mediaConfigSchema,
  type TranscriptionConfig,
  transcriptionConfigSchema,
} from "./config/media-config.js";
export { type MediaExtension, type MediaExtensionOptions, mediaExtension } from "./extension/media-extension.js";
export { type MediaCallDeps, mediaStreamFn } from "./extension/media-stream-fn.js";
export { type PdfText, PdfUnreadableError, pdfText } from "./reading/pdf-text.js";
export { ImageRejectedError, type PreparedImage, prepareImage } from "./reading/prepare-image.js";
export {
  type AttachmentReaderDeps,
  type AttachmentReading,
  readAttachment,
  sourceKeyOf,
} from "./reading/read-attachment.js";
export {
  type AttachmentProblem,
  hasAttachments,
  type ResolvedMessages,
  resolveAttachments,
} from "./reading/resolve-attachments.js";
export { sniffType } from "./reading/sniff-type.js";
export { TranscriptionError, transcribeAudio } from "./reading/transcribe-audio.js";
export { type AgentFiles, type SendFileDeps, sendFileTool } from "./sending/send-file-tool.js";
