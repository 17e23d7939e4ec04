import { type DocumentContent, formatBytes, type Model } from "@chorus/core";

/** Whether `model` is sent a document as one (`capabilities.documents`); otherwise it reads `documentOmitted`. */
export function readsDocuments(model: Pick<Model, "capabilities">): boolean {
  return model.capabilities.documents === true;
}

/**
 * The line a model reads for a document it is not sent (it does not read documents, or the provider takes none of
 * that type): its name, type and size, so the agent can say what it could not read. Contract: pure.
 */
export function documentOmitted(part: DocumentContent, why = "this model does not read documents"): string {
  const size = formatBytes(base64Bytes(part.data));
  return `[document omitted: ${part.name ?? "unnamed"} (${part.mimeType}, ${size}) — ${why}]`;
}

/** Where a path takes text only (a tool result on OpenAI): what a non-text part becomes. */
export function omittedPartText(part: { type: string }): string {
  return part.type === "document" ? "[document omitted]" : part.type === "image" ? "[image omitted]" : "[file omitted]";
}

/** The size of base64 data once decoded, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The file name a provider that requires one gets for a document without a name. */
export function documentFilename(part: DocumentContent): string {
  if (part.name) return part.name;
  return part.mimeType === "application/pdf" ? "document.pdf" : "document";
}
