import { z } from "zod";

/** Most items one list holds: a plan of work, not a backlog (each item is in every restoration). */
export const MAX_TODOS = 50;
/** Longest item, in characters: one line of work to do. */
export const MAX_TODO_CHARS = 500;

/** Where an item stands; at most one is `in_progress` at a time. */
export const TODO_STATUSES = ["pending", "in_progress", "completed"] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of a session's todo list. */
export interface TodoItem {
  readonly content: string;
  readonly status: TodoStatus;
}

/** One item as the model writes it (and as it is stored): bounded text and a status. */
export const todoItemSchema = z.object({
  content: z
    .string()
    .trim()
    .min(1, "an item's content is empty: say in one line what is to be done")
    .max(MAX_TODO_CHARS, `an item's content may be at most ${MAX_TODO_CHARS} characters: shorten it to one line`)
    .describe("What is to be done, in one line."),
  status: z.enum(TODO_STATUSES).describe("pending, in_progress (at most one item) or completed."),
});

/** The whole list, bounded. */
export const todoListSchema = z
  .array(todoItemSchema)
  .max(MAX_TODOS, `a todo list may hold at most ${MAX_TODOS} items: merge or drop some`);

/** A list that breaks a rule the schema cannot express, or undefined: at most one item may be in progress. */
export function todoListProblem(items: readonly TodoItem[]): string | undefined {
  const working = items.filter((item) => item.status === "in_progress");
  if (working.length <= 1) return undefined;
  const names = working.map((item) => `"${item.content}"`).join(", ");
  return `${working.length} items are in_progress (${names}); at most one may be: mark the others pending or completed.`;
}

/** The items still to do, in order, as one line each (the one in progress says so). Contract: pure. */
export function openTodoLines(items: readonly TodoItem[]): string[] {
  return items.flatMap((item) => {
    if (item.status === "completed") return [];
    return [item.status === "in_progress" ? `${item.content} (in progress)` : item.content];
  });
}

/** Whether two lists hold the same items in the same order with the same statuses. Contract: pure. */
export function sameTodoList(a: readonly TodoItem[], b: readonly TodoItem[]): boolean {
  return a.length === b.length && a.every((item, i) => item.content === b[i]?.content && item.status === b[i]?.status);
}
