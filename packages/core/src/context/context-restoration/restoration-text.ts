import type { AgentMessage } from "../../messages/message-types.js";
import { CONTEXT_RESTORATION_DEFAULTS, type RecentFile } from "./restoration-config.js";

const CHARS_PER_TOKEN = 4;

/** Heading of the re-attached files' text block. */
export const RESTORED_FILES_HEADING =
  "Files you read before the conversation was compacted, with their current content (no need to read them again):";

/** The limits of one restoration. */
export interface RestorationLimits {
  maxFiles?: number;
  totalBudgetTokens?: number;
  perFileTokens?: number;
}

/** The text re-attaching `files` and the paths it holds; undefined when no file is left to attach. */
export interface RestorationText {
  text: string;
  paths: string[];
  tokens: number;
}

/**
 * Builds the re-attachment of recently read files (seed 004): most recent first, files whose read is still in `kept`
 * skipped, each cut to `perFileTokens`, stopping at `maxFiles` or when the next file would pass `totalBudgetTokens`.
 * Contract: pure; the result never exceeds the limits (≈ 4 characters per token).
 */
export function restorationText(
  files: readonly RecentFile[],
  kept: readonly AgentMessage[],
  limits: RestorationLimits = {},
): RestorationText | undefined {
  const maxFiles = limits.maxFiles ?? CONTEXT_RESTORATION_DEFAULTS.maxFiles;
  const budget = limits.totalBudgetTokens ?? CONTEXT_RESTORATION_DEFAULTS.totalBudgetTokens;
  const perFile = limits.perFileTokens ?? CONTEXT_RESTORATION_DEFAULTS.perFileTokens;
  const keptCalls = new Set<string>();
  for (const message of kept) {
    if ((message as { role?: string }).role === "toolResult")
      keptCalls.add((message as { toolCallId: string }).toolCallId);
  }
  const seen = new Set<string>();
  const parts: string[] = [];
  const paths: string[] = [];
  let tokens = 0;
  for (const file of files) {
    if (paths.length >= maxFiles) break;
    if (seen.has(file.path)) continue;
    seen.add(file.path);
    if (file.toolCallId !== undefined && keptCalls.has(file.toolCallId)) continue;
    const part = filePart(file, perFile);
    const partTokens = Math.ceil(part.length / CHARS_PER_TOKEN);
    if (tokens + partTokens > budget) continue;
    parts.push(part);
    paths.push(file.path);
    tokens += partTokens;
  }
  if (parts.length === 0) return undefined;
  return { text: `${RESTORED_FILES_HEADING}\n\n${parts.join("\n\n")}`, paths, tokens };
}

function filePart(file: RecentFile, perFileTokens: number): string {
  const open = `<file path="${file.path}">\n`;
  const close = "\n</file>";
  const room = perFileTokens * CHARS_PER_TOKEN - open.length - close.length;
  if (file.content.length <= room) return open + file.content + close;
  const note = `\n[... cut: ${file.content.length} characters in all; read the file for the rest]`;
  return open + file.content.slice(0, Math.max(0, room - note.length)) + note + close;
}
