import type { ReminderSource } from "./reminder-types.js";

type MaybePromise<T> = T | Promise<T>;

/**
 * "todo_reminders": the open items of the agent's todo list, whenever the list differs from the
 * one last reminded of. Contract: an empty list says nothing.
 */
export function pendingTodosReminder(todos: () => MaybePromise<readonly string[]>): ReminderSource {
  let last = "";
  return async () => {
    const items = await todos();
    const key = items.join("\n");
    if (items.length === 0 || key === last) {
      last = key;
      return [];
    }
    last = key;
    const list = items.map((item) => `- ${item}`).join("\n");
    return [{ kind: "todo_reminders", text: `Your todo list still has open items:\n${list}` }];
  };
}
