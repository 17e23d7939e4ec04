import { stat } from "node:fs/promises";
import type { Reminder, ReminderSource } from "./reminder-types.js";

type MaybePromise<T> = T | Promise<T>;

/** Modification time of a file in ms; undefined when it does not exist. */
export type FileVersion = (path: string) => Promise<number | undefined>;

const mtimeOf: FileVersion = async (path) => {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
};

/**
 * "changed_files": names the watched files (e.g. the ones the agent read) whose modification time
 * changed since the source last looked. Contract: the first look records, never reports.
 */
export function changedFilesReminder(
  watched: () => MaybePromise<readonly string[]>,
  versionOf: FileVersion = mtimeOf,
): ReminderSource {
  const seen = new Map<string, number | undefined>();
  return async () => {
    const changed: string[] = [];
    for (const path of await watched()) {
      const version = await versionOf(path);
      if (seen.has(path) && seen.get(path) !== version)
        changed.push(version === undefined ? `${path} (deleted)` : path);
      seen.set(path, version);
    }
    return changedFilesReminders(changed);
  };
}

/** The "changed_files" reminder naming `changed` (none when it is empty); shared by the changed-files sources. */
export function changedFilesReminders(changed: readonly string[]): Reminder[] {
  if (changed.length === 0) return [];
  return [
    {
      kind: "changed_files",
      text: `These files changed since you last saw them (by the user or a tool); read them again before relying on them:\n${changed.map((p) => `- ${p}`).join("\n")}`,
    },
  ];
}
