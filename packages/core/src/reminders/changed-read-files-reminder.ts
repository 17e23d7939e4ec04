import { createHash } from "node:crypto";
import type { RecentFilesSource } from "../context/context-restoration/restoration-config.js";
import type { AgentMessage } from "../messages/message-types.js";
import type { ToolRunInfo } from "../tools/tool-types.js";
import { changedFilesReminders } from "./changed-files-reminder.js";
import type { ReminderSource } from "./reminder-types.js";

/** Files of a session looked at per model call (RecentFileReads remembers 20). */
const DEFAULT_WATCHED = 20;

/**
 * "changed_files" for the files a session read, from the same source context restoration uses (e.g. @chorus/tools'
 * RecentFileReads): before each model call, names those whose content differs from the last look. A file the
 * agent's own tool calls named since the last look (its write, edit or new read) is taken as it is now, unreported.
 * One source per session (it keeps what it saw). Contract: a file's first look records, never reports; a file the
 * source no longer lists (unreadable, forgotten) is dropped silently.
 * @example reminders: { sources: [changedReadFilesReminder(reads.source, { runId: "", depth: 0, sessionId })] }
 */
export function changedReadFilesReminder(
  recentFiles: RecentFilesSource,
  run: ToolRunInfo,
  options: { watched?: number } = {},
): ReminderSource {
  const limit = options.watched ?? DEFAULT_WATCHED;
  let seen = new Map<string, string>();
  const knownCalls = new Set<string>();
  return async ({ messages }) => {
    const touched = pathsOfNewToolCalls(messages, knownCalls);
    const files = await recentFiles(run, limit);
    const changed: string[] = [];
    const now = new Map<string, string>();
    for (const file of files) {
      if (now.has(file.path)) continue;
      const digest = createHash("sha256").update(file.content).digest("hex");
      now.set(file.path, digest);
      const before = seen.get(file.path);
      if (before !== undefined && before !== digest && !touched.has(file.path)) changed.push(file.path);
    }
    seen = now;
    return changedFilesReminders(changed);
  };
}

/** The `path` arguments of the tool calls in `messages` not met before (they are added to `known`). */
function pathsOfNewToolCalls(messages: readonly AgentMessage[], known: Set<string>): Set<string> {
  const paths = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type !== "toolCall" || known.has(part.id)) continue;
      known.add(part.id);
      const path = part.arguments.path;
      if (typeof path === "string") paths.add(path);
    }
  }
  return paths;
}
