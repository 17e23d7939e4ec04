import type { SessionStore } from "./session-store.js";
import type { StoredJson } from "./store-types.js";

/**
 * Removes the named settings from a session's stored settings, read again inside the transaction (others change them
 * too). Contract: nothing is written when none of them is there or the session is gone.
 */
export async function dropSessionSettings(
  store: Pick<SessionStore, "transaction">,
  sessionKey: string,
  names: readonly string[],
): Promise<void> {
  await store.transaction(async (tx) => {
    const session = await tx.getSession(sessionKey);
    if (session === undefined || !names.some((name) => name in session.settings)) return;
    const settings = { ...session.settings };
    for (const name of names) delete settings[name];
    await tx.updateSession(sessionKey, { settings });
  });
}

/**
 * Sets one setting in a session's stored settings, read again inside the transaction (others change them too), e.g.
 * the state a feature keeps with a session. Contract: nothing is written when the session is gone; `value` must be
 * JSON (it is stored as it is, in SQLite and PostgreSQL alike, and moves with the session in a cluster).
 * @example
 * await writeSessionSetting(store, sessionKey, "sessionMemory", { summary: "…", coveredCount: 12 });
 */
export async function writeSessionSetting(
  store: Pick<SessionStore, "transaction">,
  sessionKey: string,
  name: string,
  value: StoredJson,
): Promise<void> {
  await store.transaction(async (tx) => {
    const session = await tx.getSession(sessionKey);
    if (session === undefined) return;
    await tx.updateSession(sessionKey, { settings: { ...session.settings, [name]: value } });
  });
}
