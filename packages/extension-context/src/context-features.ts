import type { ContextFeature } from "./context-feature.js";
import { focusFeature } from "./focus/focus-feature.js";
import { sessionMemoryFeature } from "./session-memory/session-memory-feature.js";
import { subgoalsFeature } from "./subgoals/subgoals-feature.js";
import { todosFeature } from "./todos/todos-feature.js";
import { toolPairSummariesFeature } from "./tool-pair-summaries/tool-pair-summaries-feature.js";

/** Every feature of the extension, in the order their context layers apply (each one off unless its settings say). */
export const CONTEXT_FEATURES: readonly ContextFeature[] = [
  // First: its layer wraps the gateway's and the agent's context settings directly, as when the gateway applied it.
  subgoalsFeature,
  sessionMemoryFeature,
  toolPairSummariesFeature,
  focusFeature,
  todosFeature,
];
