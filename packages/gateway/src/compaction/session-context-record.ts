import type { Model } from "@chorus/core";
import { dropSessionSettings, type SessionRecord, type SessionStore, type StoredJson } from "@chorus/store";

/**
 * The session setting holding its last compaction. Kept in the session's `settings` JSON (like its subgoals) rather
 * than in a column of its own: both stores carry settings already, so it survives a restart and moves with the
 * session to another instance of a cluster without a migration.
 */
export const LAST_COMPACTION_SETTING = "lastCompaction";

/** The session setting holding the context window (tokens) of the model its last compaction or /model ran against. */
export const CONTEXT_MAX_TOKENS_SETTING = "contextMaxTokens";

/** A session's last hard compaction: estimated tokens before → after, and when (epoch ms). */
export interface LastCompaction {
  readonly before: number;
  readonly after: number;
  /** Absent in records stored before the time was kept. */
  readonly atMs?: number;
}

/** The last compaction in a session's settings, or undefined when none (or an unreadable one) is stored. */
export function storedLastCompaction(settings: SessionRecord["settings"]): LastCompaction | undefined {
  const value = settings[LAST_COMPACTION_SETTING];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { before, after, atMs } = value as Record<string, unknown>;
  if (typeof before !== "number" || typeof after !== "number") return undefined;
  return typeof atMs === "number" ? { before, after, atMs } : { before, after };
}

/** The context window stored with a session, or undefined when none is. */
export function storedContextMaxTokens(settings: SessionRecord["settings"]): number | undefined {
  const value = settings[CONTEXT_MAX_TOKENS_SETTING];
  return typeof value === "number" && value > 0 ? value : undefined;
}

/**
 * Stores what a compaction saved (and, when given, the window it ran against) in the session's settings.
 * Contract: the settings are read again inside the transaction (the goal, subgoals… change them too); a session that
 * is gone is left alone.
 */
export async function storeSessionContext(
  store: Pick<SessionStore, "transaction">,
  sessionKey: string,
  change: { readonly lastCompaction?: LastCompaction; readonly contextMaxTokens?: number },
): Promise<void> {
  await store.transaction(async (tx) => {
    const session = await tx.getSession(sessionKey);
    if (session === undefined) return;
    const settings: Record<string, StoredJson> = { ...session.settings };
    if (change.lastCompaction !== undefined) settings[LAST_COMPACTION_SETTING] = { ...change.lastCompaction };
    if (change.contextMaxTokens !== undefined) settings[CONTEXT_MAX_TOKENS_SETTING] = change.contextMaxTokens;
    await tx.updateSession(sessionKey, { settings });
  });
}

/** Forgets the last compaction (a /new conversation has had none). Contract: a session that is gone is left alone. */
export function forgetLastCompaction(store: Pick<SessionStore, "transaction">, sessionKey: string): Promise<void> {
  return dropSessionSettings(store, sessionKey, [LAST_COMPACTION_SETTING]);
}

/**
 * The context window a session's loop works against, in tokens: the gateway's `loop.context.window` when set (the
 * agent's own context settings never set one), else the model's. The loop compacts against the same figure.
 */
export function effectiveContextWindow(
  loop: { readonly context?: { readonly window?: number } | undefined } | undefined,
  model: Pick<Model, "contextWindow">,
): number {
  return loop?.context?.window ?? model.contextWindow;
}
