// @chorus/core/testing — a scripted StreamFn and message builders for tests.
export { fakeModel } from "./fake-model.js";
export { assistantMessage, assistantText, assistantToolCalls, toolResult, userMessage } from "./message-builders.js";
export type {
  RecordedCall,
  Script,
  ScriptedBlock,
  ScriptedFault,
  ScriptedReply,
  ScriptedText,
  ScriptedThinking,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedUsage,
} from "./script-types.js";
export { type ScriptedStreamFn, scriptedStreamFn } from "./scripted-stream-fn.js";
