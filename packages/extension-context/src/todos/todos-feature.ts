import { addRestorationSources, pendingTodosReminder } from "@chorus/core";
import type { ExtensionStartContext, SessionAgentParts, SessionAgentStart } from "@chorus/gateway";
import type { ContextFeature } from "../context-feature.js";
import { SessionTodoList } from "./session-todo-list.js";
import { readStoredTodos, storeTodos, TODOS_SETTING } from "./stored-todos.js";
import { todoWriteTool } from "./todo-write-tool.js";

/**
 * A todo list per session for each agent that enables it (issue #34: "pending todos"): the `todo_write` tool, the list
 * kept in the session's `todos` setting, core's `pendingTodosReminder` over its open items (before a model call, when
 * they changed), and the restoration source that brings the open items back after a compaction. Contract: each
 * session's Agent gets its own list; an unreadable stored list is logged and the session starts with an empty one.
 */
export const todosFeature: ContextFeature = {
  name: "todos",
  settingsKey: TODOS_SETTING,
  sessionParts: (session, settings, context) => (settings.todos?.enabled ? todosParts(session, context) : undefined),
};

function todosParts(session: SessionAgentStart, context: ExtensionStartContext): SessionAgentParts {
  const { sessionKey } = session;
  const log = context.logger;
  const stored = readStoredTodos(session.settings, (error) =>
    log.warn({ sessionKey, err: error.message }, "unreadable todo list: starting with an empty one"),
  );
  const list = new SessionTodoList(stored, (items) => storeTodos(context.store, sessionKey, items));
  const tool = todoWriteTool(list, (error) =>
    log.warn({ sessionKey, err: (error as Error)?.message ?? String(error) }, "could not store the todo list"),
  );
  const openItems = () => list.openLines();
  return {
    tools: [tool],
    reminders: [pendingTodosReminder(openItems)],
    context: (given) => addRestorationSources(given, { todos: openItems }),
  };
}
