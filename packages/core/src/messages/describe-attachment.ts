import type { AttachmentContent } from "./content.js";

/**
 * The line a model reads for an attachment nobody resolved: its name, type and size, so the agent can say what it
 * cannot read. Contract: pure; e.g. `[attachment: report.xlsx (application/vnd.ms-excel, 14.2 KB) — not read]`.
 */
export function describeAttachment(part: AttachmentContent, why = "not read"): string {
  const facts = [part.mimeType ?? part.kind, part.sizeBytes === undefined ? undefined : formatBytes(part.sizeBytes)];
  const shown = facts.filter((fact) => fact !== undefined && fact !== "");
  return `[attachment: ${part.name}${shown.length === 0 ? "" : ` (${shown.join(", ")})`} — ${why}]`;
}

/** `1536` → `1.5 KB`. Contract: pure; bytes below 1 KB are shown as bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
