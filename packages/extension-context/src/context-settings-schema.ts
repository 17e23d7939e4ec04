import { z } from "zod";
import { focusSettingsSchema } from "./focus/focus-settings.js";
import { sessionMemorySettingsSchema } from "./session-memory/session-memory-settings.js";
import { todosSettingsSchema } from "./todos/todos-settings.js";
import { toolPairSummariesSettingsSchema } from "./tool-pair-summaries/tool-pair-summaries-settings.js";

/**
 * An agent's context-management settings (the bot's `agents[].context`): each feature's own sub-object, every one off
 * by default. Contract: unknown keys are refused (a misspelt key is an error at start, not a silent default).
 */
export const contextSettingsSchema = z.strictObject({
  sessionMemory: sessionMemorySettingsSchema.optional(),
  toolPairSummaries: toolPairSummariesSettingsSchema.optional(),
  focus: focusSettingsSchema.optional(),
  todos: todosSettingsSchema.optional(),
});

/** Parsed context settings of one agent. */
export type ContextSettings = z.output<typeof contextSettingsSchema>;
/** Context settings as written in the configuration (defaults not applied yet). */
export type ContextSettingsInput = z.input<typeof contextSettingsSchema>;
