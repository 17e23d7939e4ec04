import { z } from "zod";
import type { SessionMemorySummary } from "./session-memory-summary.js";

/** A kept summary as stored JSON (e.g. in a session's settings): it survives restarts and moves with the session. */
export const sessionMemorySnapshotSchema = z.object({
  version: z.literal(1),
  text: z.string().min(1),
  covered: z.object({
    index: z.number().int().nonnegative(),
    role: z.string().min(1),
    timestamp: z.number().nullable(),
  }),
});

/** The stored form of a `SessionMemory`. */
export type SessionMemorySnapshot = z.infer<typeof sessionMemorySnapshotSchema>;

/** A stored session-memory snapshot that is not one (corrupted, or written by an unknown version). */
export class SessionMemorySnapshotError extends Error {
  override readonly name = "SessionMemorySnapshotError";
}

/**
 * Reads a stored snapshot back. Contract: throws SessionMemorySnapshotError naming what is wrong; never anything else.
 */
export function parseSessionMemorySnapshot(value: unknown): SessionMemorySnapshot {
  const parsed = sessionMemorySnapshotSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  throw new SessionMemorySnapshotError(`not a session-memory snapshot${where}: ${issue?.message ?? "invalid"}`);
}

/** The snapshot of a summary. Contract: pure; JSON-safe. */
export function snapshotOf(summary: SessionMemorySummary): SessionMemorySnapshot {
  const { index, role, timestamp } = summary.covered;
  return { version: 1, text: summary.text, covered: { index, role, timestamp } };
}
