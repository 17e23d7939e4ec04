import { openTodoLines, sameTodoList, type TodoItem } from "./todo-list.js";

/** What replacing the list did: `unchanged` wrote nothing. */
export type TodoListChange = "changed" | "unchanged";

/**
 * One session's todo list, as its Agent knows it: replaced whole by `todo_write`, stored before it counts. Contract:
 * `replace` changes the list only once `save` resolved (a failed save leaves it as it was, and rejects); one replace
 * at a time (the tool runs alone).
 */
export class SessionTodoList {
  #items: readonly TodoItem[];
  readonly #save: (items: readonly TodoItem[]) => Promise<void>;

  constructor(initial: readonly TodoItem[], save: (items: readonly TodoItem[]) => Promise<void>) {
    this.#items = initial;
    this.#save = save;
  }

  get items(): readonly TodoItem[] {
    return this.#items;
  }

  /** The items still to do, one line each (for the reminder and the restoration). */
  openLines(): string[] {
    return openTodoLines(this.#items);
  }

  async replace(items: readonly TodoItem[]): Promise<TodoListChange> {
    if (sameTodoList(this.#items, items)) return "unchanged";
    await this.#save(items);
    this.#items = items;
    return "changed";
  }
}
