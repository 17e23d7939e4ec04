// Gateway extensions: what a feature that is not the message path adds to the hub (commands, /agents sections, turn
// hooks, a model-call wrapper, tools, start and stop). Low in the hub: it imports no feature and nothing above it.
export {
  runAfterTurn,
  runBeforeTurn,
  runLifecycle,
  runOwnershipChanged,
  runSessionEnding,
  runSessionIdle,
  startExtensions,
  statusLinesOf,
  stopExtensions,
} from "./contained-hooks.js";
export { ExtensionError } from "./extension-error.js";
export type {
  AgentCommand,
  AgentsSection,
  BeforeTurnResult,
  ExtensionCommand,
  ExtensionCommandContext,
  ExtensionReply,
  ExtensionSessions,
  ExtensionStartContext,
  GatewayExtension,
  OwnerCall,
  OwnershipChange,
  SessionAgentParts,
  SessionAgentStart,
  SessionChats,
  StatusSession,
  TurnAboutToStart,
  TurnCommitted,
  TurnStarted,
} from "./gateway-extension.js";
export { type RegisteredExtensions, registerExtensions, wrapStreamFn } from "./registered-extensions.js";
export {
  endRefusalOf,
  resumedByAnExtension,
  rewrittenSystemPrompt,
  runSessionStopped,
  runTurnStarted,
} from "./session-lifecycle-hooks.js";
export { commitWritesOf, sessionAgentPartsOf, sessionToolsOf } from "./session-turn-parts.js";
