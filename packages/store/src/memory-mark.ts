/**
 * Which end-of-session memory extraction may read a message a person said in the chat: their trust tier when they
 * said it, or `off` when the session's settings held `memory: "off"` then (`MEMORY_OFF_SETTING`). Kept with the
 * message, so a restart or a takeover cannot widen what a later pass reads.
 */
export type MemoryMark = "owner" | "trusted" | "guest" | "off";

/** The session setting `/memory off` writes (`settings[key] === value`). */
export const MEMORY_OFF_SETTING = { key: "memory", value: "off" } as const;

/** The mark of a message said at `tier` in a session with these settings. Contract: pure. */
export function memoryMarkFor(
  settings: Readonly<Record<string, unknown>>,
  tier: "owner" | "trusted" | "guest",
): MemoryMark {
  return settings[MEMORY_OFF_SETTING.key] === MEMORY_OFF_SETTING.value ? "off" : tier;
}

/** Reads a stored mark; anything else (a row written before marks were kept) is no mark. */
export function parseMemoryMark(value: unknown): MemoryMark | undefined {
  return value === "owner" || value === "trusted" || value === "guest" || value === "off" ? value : undefined;
}
