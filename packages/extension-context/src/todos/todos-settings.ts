import { z } from "zod";

/**
 * `agents[].context.todos`: a todo list kept per session. The agent gets the `todo_write` tool, is reminded of the
 * list's open items before a model call when they changed, and a compaction brings them back. Contract: off unless
 * `enabled`.
 */
export const todosSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
});

/** Parsed todo-list settings of one agent. */
export type TodosSettings = z.output<typeof todosSettingsSchema>;
