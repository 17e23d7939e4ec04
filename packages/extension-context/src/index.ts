// Context management in the Chorus gateway, as an extension (`contextExtension`).

export { type ContextExtensionOptions, contextExtension } from "./context-extension.js";
export type { ContextFeature } from "./context-feature.js";
export { CONTEXT_FEATURES } from "./context-features.js";
export { type ContextSettings, type ContextSettingsInput, contextSettingsSchema } from "./context-settings-schema.js";
export { ExclusiveCompressionStrategiesError, focusFeature } from "./focus/focus-feature.js";
export { type FocusFeatureSettings, focusSettingsSchema } from "./focus/focus-settings.js";
export { FOCUS_SETTING, readStoredFocus } from "./focus/stored-focus.js";
export { sessionMemoryFeature } from "./session-memory/session-memory-feature.js";
export {
  type SessionMemorySettings,
  sessionMemorySettingsSchema,
} from "./session-memory/session-memory-settings.js";
export { readStoredSessionMemory, SESSION_MEMORY_SETTING } from "./session-memory/stored-session-memory.js";
export { SessionSettingWriter } from "./session-setting-writer.js";
export { readStoredSubgoals, SUBGOALS_SETTING } from "./subgoals/stored-subgoals.js";
export { type SubgoalPruning, subgoalPruningOf } from "./subgoals/subgoal-pruning-of.js";
export { SUBGOALS_PURPOSE, subgoalsFeature } from "./subgoals/subgoals-feature.js";
export { SessionTodoList, type TodoListChange } from "./todos/session-todo-list.js";
export { readStoredTodos, storeTodos, TODOS_SETTING } from "./todos/stored-todos.js";
export {
  MAX_TODO_CHARS,
  MAX_TODOS,
  TODO_STATUSES,
  type TodoItem,
  type TodoStatus,
  todoListProblem,
} from "./todos/todo-list.js";
export { TODO_WRITE_TOOL, todoWriteTool } from "./todos/todo-write-tool.js";
export { todosFeature } from "./todos/todos-feature.js";
export { type TodosSettings, todosSettingsSchema } from "./todos/todos-settings.js";
export {
  readStoredSummaries,
  TOOL_PAIR_SUMMARIES_SETTING,
} from "./tool-pair-summaries/stored-tool-pair-summaries.js";
export {
  TOOL_PAIR_SUMMARY_PURPOSE,
  toolPairSummariesFeature,
} from "./tool-pair-summaries/tool-pair-summaries-feature.js";
export {
  type ToolPairSummariesSettings,
  toolPairSummariesSettingsSchema,
} from "./tool-pair-summaries/tool-pair-summaries-settings.js";
export { checkContextModel, UnknownContextModelError } from "./unknown-context-model.js";
