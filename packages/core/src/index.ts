// @chorus/core — public API.
export {
  Agent,
  type AgentOptions,
  type AgentRunIdentity,
  type AgentRunResult,
  type AgentState,
  type CompactOptions,
} from "./agent/agent.js";
export { SubscriberList } from "./agent/subscriber-list.js";
export { type CompactionStep, type CompactionStepInput, finishCompaction } from "./context/compaction-steps.js";
export { attachRestoration } from "./context/context-restoration/attach-restoration.js";
export {
  CONTEXT_RESTORATION_DEFAULTS,
  type ContextRestorationConfig,
  type RecentFile,
  type RecentFilesSource,
} from "./context/context-restoration/restoration-config.js";
export {
  RESTORED_FILES_HEADING,
  type RestorationLimits,
  type RestorationText,
  restorationText,
} from "./context/context-restoration/restoration-text.js";
export {
  type RestorationOutcome,
  withRestoredFiles,
} from "./context/context-restoration/with-restored-files.js";
export { defaultConvertToLlm } from "./context/convert-to-llm.js";
export { EMPTY_MESSAGE_TEXT, withoutEmptyContent } from "./context/empty-content-repair.js";
export { CLEARED_RESULT_TEXT, MICRO_COMPACTION_DEFAULTS, microCompact } from "./context/micro-compaction.js";
export { stripOrphanedToolResults } from "./context/orphaned-tool-results.js";
export { evictionScores, type SubgoalPruningStrategy } from "./context/subgoals/eviction-scores.js";
export { SUBGOAL_PROMPT } from "./context/subgoals/subgoal-extraction.js";
export {
  type CompactionShift,
  type Subgoal,
  SubgoalRegistry,
  type SubgoalSnapshot,
  type SubgoalState,
  type SubgoalTier,
  TIER_RELEVANCE,
} from "./context/subgoals/subgoal-registry.js";
export {
  SUBGOAL_EXTRACTION_TIMEOUT_MS,
  SUBGOAL_REINSERT_TOKENS,
  SubgoalTracker,
  type SubgoalTrackerOptions,
} from "./context/subgoals/subgoal-tracker.js";
export {
  DEFAULT_SUMMARY_PROMPT,
  findCompactionCut,
  isCompactionPart,
  SUMMARY_PREFIX,
  type SummaryOutcome,
  type SummaryRequest,
  summarizeOlderMessages,
} from "./context/summary-compaction.js";
export { estimateMessageTokens, estimateTokens, estimateToolTokens } from "./context/token-estimate.js";
export {
  TOOL_OUTPUT_COMPRESSION_DEFAULTS,
  type ToolOutputCompressionConfig,
} from "./context/tool-output-compression/compression-config.js";
export { MISSING_RESULT_TEXT, repairTranscript } from "./context/transcript-repair.js";
export {
  AgentBusyError,
  InvalidAgentConfigError,
  InvalidContinueError,
  InvalidToolDefinitionError,
  UnknownApprovalError,
} from "./errors/agent-errors.js";
export type { ProviderErrorInfo, ProviderErrorKind } from "./errors/provider-error.js";
export {
  abortMessage,
  DEFAULT_TOOL_TIMEOUTS,
  ToolAbortError,
  type ToolAbortKind,
} from "./executor/abort-reasons.js";
export { type ExecutorOptions, ToolExecutor } from "./executor/tool-executor.js";
export { type ValidatedArgs, validateArgs } from "./executor/validate-args.js";
export { applyHooks } from "./hooks/apply-hooks.js";
export type { AgentHook, AgentHooks, HookEvent, HookEventName, HookOutcome } from "./hooks/hook-types.js";
export { runHooks } from "./hooks/run-hooks.js";
export type { CoreLogger } from "./logging/core-logger.js";
export type { AgentEndReason, AgentEvent, AgentEventType } from "./loop/agent-events.js";
export { agentLoop, agentLoopContinue } from "./loop/agent-loop.js";
export {
  type CompactTranscriptOutcome,
  type CompactTranscriptRequest,
  compactTranscript,
  DEFAULT_KEEP_RECENT_TOKENS,
} from "./loop/compact-transcript.js";
export type {
  AgentContext,
  AgentLoopConfig,
  CompactionConfig,
  ContextConfig,
  MessageProvider,
  MicroCompactionConfig,
  ToolExecutionConfig,
} from "./loop/loop-config.js";
export { CONTINUE_AFTER_LENGTH_TEXT, CUT_OFF_TOOL_CALL_TEXT } from "./loop/run-loop.js";
export type {
  AssistantContent,
  AttachmentContent,
  AttachmentSource,
  DocumentContent,
  ImageContent,
  TextContent,
  ThinkingContent,
  ToolCall,
  UserContent,
} from "./messages/content.js";
export { describeAttachment, formatBytes } from "./messages/describe-attachment.js";
export type {
  AgentMessage,
  AssistantMessage,
  CustomAgentMessages,
  Message,
  StopReason,
  ToolOutputCompressionTag,
  ToolResultMessage,
  UserMessage,
} from "./messages/message-types.js";
export { addUsage, emptyUsage, type Usage, type UsageCost } from "./messages/usage.js";
export type { Model, ModelCapabilities, ModelPricing } from "./model/model.js";
export { DEFAULT_APPROVAL_TIMEOUT_MS } from "./policies/dispatch-decision.js";
export type {
  ApprovalDecision,
  ApprovalRequest,
  PolicyContext,
  PostLoopDecision,
  PostLoopPolicy,
  PostTurnDecision,
  PostTurnPolicy,
  PreDispatchDecision,
  PreDispatchPolicy,
  PreTurnContext,
  PreTurnDecision,
  PreTurnPolicy,
} from "./policies/policy-types.js";
export { approvalOutcomesReminder } from "./reminders/approval-outcomes-reminder.js";
export { changedFilesReminder, type FileVersion } from "./reminders/changed-files-reminder.js";
export { pendingTodosReminder } from "./reminders/pending-todos-reminder.js";
export { DEFAULT_REMINDER_TIMEOUT_MS, ReminderPipeline } from "./reminders/reminder-pipeline.js";
export type {
  ApprovalOutcome,
  Reminder,
  ReminderContext,
  ReminderSource,
  RemindersConfig,
  SystemReminderMessage,
} from "./reminders/reminder-types.js";
export { isSystemReminder, systemReminderMessage, wrapSystemReminder } from "./reminders/system-reminder-message.js";
export { timePassedReminder } from "./reminders/time-passed-reminder.js";
export { abortableSleep } from "./retry/abortable-sleep.js";
export {
  type DefaultRetryOptions,
  defaultRetryStrategy,
  noRetry,
  type RetryContext,
  type RetryDecision,
  type RetryStrategy,
} from "./retry/retry-strategy.js";
export { type AssistantMessageEvent, AssistantMessageEventStream } from "./stream/assistant-message-event.js";
export { EventStream } from "./stream/event-stream.js";
export type { LlmTool, StreamContext, StreamFn, StreamOptions } from "./stream/stream-fn.js";
export {
  CHORUS as CHORUS_SPAN_ATTRIBUTES,
  finishReason,
  GEN_AI as GEN_AI_ATTRIBUTES,
} from "./telemetry/genai-attributes.js";
export { lazyInstruments } from "./telemetry/lazy-instruments.js";
export { startInvokeAgentSpan } from "./telemetry/run-telemetry.js";
export type { AgentTelemetryConfig } from "./telemetry/telemetry-config.js";
export { defineTool, toLlmTool } from "./tools/define-tool.js";
export {
  type ExecutionContext,
  type ExecutionContextInit,
  type ExecutionContextSource,
  freezeExecutionContext,
} from "./tools/execution-context.js";
export type {
  AgentTool,
  AnyAgentTool,
  ToolCallContext,
  ToolCategory,
  ToolOutput,
  ToolRunInfo,
} from "./tools/tool-types.js";
