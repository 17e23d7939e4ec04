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
export {
  addRestorationSources,
  type RestorationSources,
} from "./context/context-restoration/add-restoration-sources.js";
export { attachRestoration } from "./context/context-restoration/attach-restoration.js";
export {
  CONTEXT_RESTORATION_DEFAULTS,
  type ContextRestorationConfig,
  type RecentFile,
  type RecentFilesSource,
  type RestoredPlanSource,
  type RestoredSkill,
  type RestoredSkillsSource,
  type RestoredTodosSource,
} from "./context/context-restoration/restoration-config.js";
export {
  RESTORED_PLAN_HEADING,
  RESTORED_SKILLS_HEADING,
  RESTORED_TODOS_HEADING,
  type RestoredParts,
  type RestoredSections,
  restorationSections,
  restoredSkillNames,
  type SectionLimits,
} from "./context/context-restoration/restoration-sections.js";
export {
  RESTORED_FILES_HEADING,
  type RestorationLimits,
  type RestorationText,
  restorationText,
} from "./context/context-restoration/restoration-text.js";
export {
  type RestorationOutcome,
  withRestoredContext,
  withRestoredFiles,
} from "./context/context-restoration/with-restored-files.js";
export { defaultConvertToLlm } from "./context/convert-to-llm.js";
export { EMPTY_MESSAGE_TEXT, withoutEmptyContent } from "./context/empty-content-repair.js";
export {
  DEFAULT_SCORING_SLICE_MS,
  type GroupingOptions,
  similarGroups,
} from "./context/focus/consolidation-groups.js";
export {
  DEFAULT_AUTO_CONSOLIDATE_MIN_WINDOW,
  DEFAULT_CONSOLIDATION_SIMILARITY,
  DEFAULT_MAX_KNOWLEDGE_CHARS,
  FocusConfigError,
  type FocusSettings,
  type ResolvedFocusSettings,
  resolveFocusSettings,
} from "./context/focus/focus-config.js";
export { type FocusReduction, reduceFocusSegments } from "./context/focus/focus-reduction.js";
export {
  type FocusMerge,
  type FocusSegment,
  type FocusSnapshot,
  FocusState,
  FocusStateError,
  FocusToolError,
  type OpenFocus,
} from "./context/focus/focus-state.js";
export { FocusStrategy, type FocusStrategyOptions } from "./context/focus/focus-strategy.js";
export { COMPLETE_FOCUS_TOOL, START_FOCUS_TOOL } from "./context/focus/focus-tools.js";
export { FOCUS_KNOWLEDGE_PREFIX, focusKnowledgeId } from "./context/focus/knowledge-message.js";
export { jaccard, mergeKnowledge, wordSet } from "./context/focus/knowledge-similarity.js";
export { CLEARED_RESULT_TEXT, MICRO_COMPACTION_DEFAULTS, microCompact } from "./context/micro-compaction.js";
export { stripOrphanedToolResults } from "./context/orphaned-tool-results.js";
export {
  SESSION_MEMORY_PURPOSE,
  SessionMemory,
  type SessionMemoryOptions,
} from "./context/session-memory/session-memory.js";
export {
  planSessionMemoryCompaction,
  type SessionMemoryCompactionPlan,
  type SessionMemorySkip,
} from "./context/session-memory/session-memory-compaction.js";
export {
  isRefreshDue,
  progressFrom,
  type SessionMemoryProgress,
  type SessionMemoryTriggers,
} from "./context/session-memory/session-memory-progress.js";
export { DEFAULT_SESSION_MEMORY_PROMPT } from "./context/session-memory/session-memory-prompt.js";
export {
  parseSessionMemorySnapshot,
  type SessionMemorySnapshot,
  SessionMemorySnapshotError,
  sessionMemorySnapshotSchema,
} from "./context/session-memory/session-memory-snapshot.js";
export {
  type CoveredMessage,
  SESSION_MEMORY_DEFAULTS,
  type SessionMemorySource,
  type SessionMemorySummary,
} from "./context/session-memory/session-memory-summary.js";
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
export {
  type AppliedToolPairSummaries,
  applyToolPairSummaries,
} from "./context/tool-pair-summaries/apply-tool-pair-summaries.js";
export { finishedToolPairs, type ToolPair } from "./context/tool-pair-summaries/finished-tool-pairs.js";
export {
  DEFAULT_SOFT_THRESHOLD,
  DEFAULT_TOOL_PAIRS_KEPT,
  type ToolPairSummariesConfig,
  type ToolPairSummarySource,
} from "./context/tool-pair-summaries/tool-pair-summaries-config.js";
export {
  DEFAULT_MIN_RESULT_TOKENS,
  TOOL_PAIR_SUMMARY_TIMEOUT_MS,
  type ToolPairSummariesSnapshot,
  ToolPairSummaryKeeper,
  type ToolPairSummaryKeeperOptions,
} from "./context/tool-pair-summaries/tool-pair-summary-keeper.js";
export {
  MAX_TOOL_PAIR_SUMMARY_CHARS,
  TOOL_PAIR_SUMMARY_MARKER,
  TOOL_PAIR_SUMMARY_PROMPT,
} from "./context/tool-pair-summaries/tool-pair-summary-request.js";
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
  siblingDeniedMessage,
  ToolAbortError,
  type ToolAbortKind,
} from "./executor/abort-reasons.js";
export { type ExecutorOptions, ToolExecutor } from "./executor/tool-executor.js";
export { type ValidatedArgs, validateArgs } from "./executor/validate-args.js";
export { applyHooks } from "./hooks/apply-hooks.js";
export type {
  AgentHook,
  AgentHooks,
  HookEvent,
  HookEventName,
  HookOutcome,
  SessionEndReason,
} from "./hooks/hook-types.js";
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
export { DEFAULT_WARNING_OFFSET } from "./loop/context-pressure.js";
export type {
  AgentContext,
  AgentLoopConfig,
  CompactionConfig,
  ContextConfig,
  MessageProvider,
  MicroCompactionConfig,
  ToolExecutionConfig,
} from "./loop/loop-config.js";
export { DEFAULT_RESERVE } from "./loop/request-context.js";
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
export { changedReadFilesReminder } from "./reminders/changed-read-files-reminder.js";
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
