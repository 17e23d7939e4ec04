import { parseSessionMemorySnapshot, type SessionMemorySnapshot } from "@chorus/core";

/** The session setting that keeps a session's summary across idle, restart and owner (SQLite and PostgreSQL alike). */
export const SESSION_MEMORY_SETTING = "sessionMemory";

/**
 * The summary stored with a session. Contract: never throws; anything unreadable is none (`onBad` hears why) — the
 * next refresh writes a new one.
 */
export function readStoredSessionMemory(
  settings: Readonly<Record<string, unknown>>,
  onBad: (error: Error) => void,
): SessionMemorySnapshot | undefined {
  const stored = settings[SESSION_MEMORY_SETTING];
  if (stored === undefined) return undefined;
  try {
    return parseSessionMemorySnapshot(stored);
  } catch (error) {
    onBad(error as Error);
    return undefined;
  }
}
