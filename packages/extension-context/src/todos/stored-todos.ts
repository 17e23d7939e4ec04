import { type SessionStore, type StoredJson, writeSessionSetting } from "@chorus/store";
import { z } from "zod";
import { type TodoItem, todoListSchema } from "./todo-list.js";

/** The session setting that keeps a session's todo list across idle, restart and a move to another owner. */
export const TODOS_SETTING = "todos";

const storedSchema = z.object({ version: z.literal(1), items: todoListSchema });

/**
 * The todo list stored with a session. Contract: never throws; nothing stored is an empty list, and so is anything
 * unreadable (`onUnreadable` hears why — the model writes the list again).
 */
export function readStoredTodos(
  settings: Readonly<Record<string, unknown>>,
  onUnreadable: (error: Error) => void,
): TodoItem[] {
  const stored = settings[TODOS_SETTING];
  if (stored === undefined) return [];
  const parsed = storedSchema.safeParse(stored);
  if (parsed.success) return parsed.data.items;
  onUnreadable(new Error(`the stored todo list is unreadable: ${parsed.error.issues[0]?.message ?? "bad shape"}`));
  return [];
}

/**
 * Stores a session's todo list (the settings read again inside the transaction: other features change them too).
 * Contract: rejects when the store does; nothing is written when the session is gone.
 * @example await storeTodos(store, sessionKey, [{ content: "write the tests", status: "in_progress" }]);
 */
export async function storeTodos(
  store: Pick<SessionStore, "transaction">,
  sessionKey: string,
  items: readonly TodoItem[],
): Promise<void> {
  const value: StoredJson = { version: 1, items: items.map((item) => ({ ...item })) };
  await writeSessionSetting(store, sessionKey, TODOS_SETTING, value);
}
