import { FocusState } from "@chorus/core";

/** The session setting that keeps a session's focus segments across idle, restart and a move to another owner. */
export const FOCUS_SETTING = "focus";

/**
 * The focus state stored with a session. Contract: never throws; nothing stored is a fresh state, and so is anything
 * unreadable (`onUnreadable` hears why — the raw segments then simply stay in the context).
 */
export function readStoredFocus(
  settings: Readonly<Record<string, unknown>>,
  onUnreadable: (error: unknown) => void,
): FocusState {
  const stored = settings[FOCUS_SETTING];
  if (stored === undefined) return new FocusState();
  try {
    return FocusState.restore(stored);
  } catch (error) {
    onUnreadable(error);
    return new FocusState();
  }
}
