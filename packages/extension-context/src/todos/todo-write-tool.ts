import { type AnyAgentTool, defineTool, type ToolOutput } from "@chorus/core";
import { z } from "zod";
import type { SessionTodoList } from "./session-todo-list.js";
import { type TodoItem, todoListProblem, todoListSchema } from "./todo-list.js";

/** The tool's name (in the `info` tool group: offered in every trust tier's turns). */
export const TODO_WRITE_TOOL = "todo_write";

const parameters = z.object({
  todos: todoListSchema.describe("The whole list, in order: every item you keep, not only the changed ones."),
});

/**
 * `todo_write {todos}` over one session's list: the model writes its whole list at once (seed 004's TodoWrite).
 * Also a guest's in a group, so bad input only earns an error result and changes nothing: over 50 items or an item over
 * 500 characters (refused by the schema), more than one item in progress, an item's text flattened to one line.
 * Contract: changes only this session's list, stored before the result says so; a store failure is an error result
 * (detail to `onStoreError`) and the list stays as it was; never throws.
 */
export function todoWriteTool(list: SessionTodoList, onStoreError: (error: unknown) => void): AnyAgentTool {
  return defineTool({
    name: TODO_WRITE_TOOL,
    description:
      "Write your todo list for the work at hand: the whole list each time, every item pending, in_progress or " +
      "completed. Use it for work of several steps; keep exactly one item in_progress while you work on it and mark " +
      "it completed as soon as it is done. You are reminded of the open items, and they come back after the " +
      "conversation is compacted.",
    parameters,
    category: "info",
    execute: async ({ todos }): Promise<ToolOutput> => {
      // One line per item: the reminder and the restoration list them one a line.
      const items: TodoItem[] = todos.map((item) => ({
        content: item.content.replace(/\s+/g, " ").trim(),
        status: item.status,
      }));
      const problem = todoListProblem(items);
      if (problem !== undefined) return failure(`${problem} The todo list is unchanged.`);
      try {
        const change = await list.replace(items);
        return { content: [{ type: "text", text: confirmation(items, change) }] };
      } catch (error) {
        onStoreError(error);
        return failure("The todo list could not be stored just now; it is unchanged. Try again later.");
      }
    },
  });
}

function confirmation(items: readonly TodoItem[], change: "changed" | "unchanged"): string {
  const count = (status: TodoItem["status"]) => items.filter((item) => item.status === status).length;
  const head = change === "unchanged" ? "The todo list is already so" : "Todo list saved";
  if (items.length === 0) return `${head}: it is empty.`;
  return (
    `${head}: ${items.length} item${items.length === 1 ? "" : "s"} — ${count("in_progress")} in progress, ` +
    `${count("pending")} pending, ${count("completed")} completed.`
  );
}

function failure(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: true };
}
