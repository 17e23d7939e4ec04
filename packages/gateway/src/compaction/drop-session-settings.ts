import type { SessionStore } from "@chorus/store";

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
