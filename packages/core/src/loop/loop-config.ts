import type { CompactionStep } from "../context/compaction-steps.js";
import type { ContextRestorationConfig } from "../context/context-restoration/restoration-config.js";
import type { SessionMemorySource } from "../context/session-memory/session-memory-summary.js";
import type { ToolOutputCompressionConfig } from "../context/tool-output-compression/compression-config.js";
import type { ToolPairSummariesConfig } from "../context/tool-pair-summaries/tool-pair-summaries-config.js";
import type { ProviderErrorKind } from "../errors/provider-error.js";
import type { AgentHooks } from "../hooks/hook-types.js";
import type { CoreLogger } from "../logging/core-logger.js";
import type { AgentMessage, Message } from "../messages/message-types.js";
import type { Model } from "../model/model.js";
import type {
  ApprovalDecision,
  ApprovalRequest,
  PostLoopPolicy,
  PostTurnPolicy,
  PreDispatchPolicy,
  PreTurnPolicy,
} from "../policies/policy-types.js";
import type { RemindersConfig } from "../reminders/reminder-types.js";
import type { RetryStrategy } from "../retry/retry-strategy.js";
import type { StreamFn, StreamOptions } from "../stream/stream-fn.js";
import type { AgentTelemetryConfig } from "../telemetry/telemetry-config.js";
import type { ExecutionContextSource } from "../tools/execution-context.js";
import type { AnyAgentTool, ToolCategory, ToolRunInfo } from "../tools/tool-types.js";

type MaybePromise<T> = T | Promise<T>;

/** What the loop starts from. The loop copies `messages`; it never mutates the caller's array. */
export interface AgentContext {
  systemPrompt?: string;
  messages: AgentMessage[];
}

/** Where steering and follow-up messages come from (the Agent's queues, or yours). */
export interface MessageProvider {
  /** Polled after each tool completes and at each turn end. */
  pollSteering(): MaybePromise<AgentMessage[]>;
  /** Polled only when the run would otherwise stop. */
  pollFollowUp(): MaybePromise<AgentMessage[]>;
}

/** Tool execution settings (seed 004). */
export interface ToolExecutionConfig {
  /** Safe calls running at once. Default 10. */
  maxConcurrency?: number;
  /** Start a call as soon as its `toolcall_end` arrives, while the model still streams. Default true. */
  streaming?: boolean;
  /** Per-category timeouts in ms. Defaults: exec 600 000, mcp 120 000, info 30 000, edit 30 000. */
  timeouts?: Partial<Record<ToolCategory, number>>;
  /** How long an aborted tool that ignores its signal is waited for before it is abandoned. Default 2000 ms. */
  abortGraceMs?: number;
}

/** Summarising compaction settings. */
export interface CompactionConfig {
  /** Default true. */
  enabled?: boolean;
  /** Tokens of recent messages kept verbatim. Default 20 000. */
  keepRecentTokens?: number;
  /** Instructions for the summariser. */
  summaryPrompt?: string;
  /** Model for the summary call. Default: the run's model. */
  model?: Model;
  /** StreamFn for the summary call. Default: the run's streamFn. */
  streamFn?: StreamFn;
  /** Steps run in order after every summarising compaction (then orphaned tool results are always stripped). */
  afterCompaction?: CompactionStep[];
  /**
   * Tier 1 (seed 004): a kept summary (e.g. a `SessionMemory`) tried before the summary call; applied, with no model
   * call, when it saves at least its minimum. Default: none (every compaction summarises).
   */
  sessionMemory?: SessionMemorySource;
}

/** Micro-compaction settings (seed 004: keep 3, minimum saving 20 000 tokens). */
export interface MicroCompactionConfig {
  /** Default true. */
  enabled?: boolean;
  /** Most recent tool results kept. Default 3. */
  keepRecent?: number;
  /** Clear only when at least this many tokens are saved. Default 20 000. */
  minSavingsTokens?: number;
  /** Which tools' results may be cleared. Default: all. */
  compactable?: (toolName: string) => boolean;
  /**
   * Eviction score per message (e.g. subgoal tiers): results scoring 1 or more are never cleared; old results
   * scoring 0 or less (fully redundant) are cleared even below `minSavingsTokens`. Default: none.
   */
  scores?: (messages: readonly AgentMessage[]) => readonly number[];
}

/** Context window management. */
export interface ContextConfig {
  /** Context window in tokens. Default: the model's. */
  window?: number;
  /** Auto-compaction starts when the estimate passes window − reserve. Default 20 000. */
  reserve?: number;
  /** A request estimated above window − blockingReserve is never sent. Default min(13 000, reserve). */
  blockingReserve?: number;
  microCompaction?: MicroCompactionConfig;
  compaction?: CompactionConfig;
  /** Bring back the plan, todos, skills and recently read files after a summarising compaction (seed 004). */
  restoration?: ContextRestorationConfig;
  /** Seed 002's soft tier: deferred tool-pair summaries replace older tool results past softThreshold × window. */
  toolPairSummaries?: ToolPairSummariesConfig;
  /**
   * A `context_warning` is emitted once as the estimate passes window − reserve − warningOffset (seed 004's
   * WARNING_OFFSET), before a compaction is forced; none when that is under half of window − reserve. Default 20 000.
   */
  warningOffset?: number;
  /**
   * Seed 002's Focus strategy (`FocusStrategy.applyTo`): closed focus segments' raw messages replaced by their knowledge
   * in the transcript first thing before every model call, so micro-compaction, the thresholds and the ceiling all see
   * the reduced size (emitted as a `compaction` of kind `focus`). Returns undefined when nothing changes; never throws.
   */
  focus?: { reduce(messages: readonly AgentMessage[]): AgentMessage[] | undefined };
}

/** Everything the stateless loop needs. Only `model` and `streamFn` are required. */
export interface AgentLoopConfig {
  model: Model;
  streamFn: StreamFn;
  streamOptions?: Omit<StreamOptions, "signal" | "apiKey">;
  retryStrategy?: RetryStrategy;
  /** Turns transcript messages into model messages. Default: keeps user, assistant and toolResult messages. */
  convertToLlm?: (messages: AgentMessage[]) => MaybePromise<Message[]>;
  /** Runs first before every model call, may be async (e.g. retrieval). Returns the messages to use. */
  asyncTransformContext?: (messages: AgentMessage[], signal: AbortSignal) => Promise<AgentMessage[]>;
  /** Synchronous transform before every model call, after the async one. */
  transformContext?: (messages: AgentMessage[]) => AgentMessage[];
  /** Called before every model call; its key goes to the StreamFn. */
  getApiKey?: (provider: string) => MaybePromise<string | undefined>;
  messageProvider?: MessageProvider;
  preTurnPolicies?: PreTurnPolicy[];
  preDispatchPolicies?: PreDispatchPolicy[];
  postTurnPolicies?: PostTurnPolicy[];
  postLoopPolicies?: PostLoopPolicy[];
  /**
   * Answers a pre-dispatch `ask`. The Agent supplies one (approve/deny); without one an `ask`
   * is denied. Resolving after the request's timeout has no effect (the call was denied).
   */
  awaitApproval?: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  tools?: AnyAgentTool[];
  toolExecution?: ToolExecutionConfig;
  /**
   * Operator hooks at turn start, before compaction, before the prompt is sent, before and after each tool
   * (seed 003). Only the app sets them; nothing the model or a chat user sends can.
   */
  hooks?: AgentHooks;
  /**
   * Resolves the run's working directory and environment once at its start (seed 002 "Per-Turn ExecutionContext");
   * tools get it frozen as `ctx.execution`. A throwing source ends the run with an error.
   */
  executionContext?: ExecutionContextSource;
  /** TACO: large outputs of compressible tools summarised before they enter the transcript (seed 002). Off by default. */
  toolOutputCompression?: ToolOutputCompressionConfig;
  /** Model calls allowed in one run. Default 100. */
  maxTurns?: number;
  /** No stream event for this long is a stall. Default 30 000 ms. */
  stallTimeoutMs?: number;
  /** What a stall does: retry the call (default), abort the run, or fall back to the next model. */
  stallRecovery?: "retry" | "abort" | "fallback";
  /** Models to continue on, in order, when the current one stays overloaded. */
  fallbackModels?: Model[];
  /** Error kinds that move to the next fallback model. Default ["overloaded"]. */
  fallbackOn?: ProviderErrorKind[];
  /** Fall back at the first such error instead of after the retries. Default false. */
  fallbackImmediately?: boolean;
  /** Times a `length` stop is recovered from in one run. Default 3. */
  maxOutputRecoveries?: number;
  context?: ContextConfig;
  /**
   * System reminders (seed 004): collected before every model call and appended, as one
   * `systemReminder` entry, at the end of the transcript. Off by default.
   */
  reminders?: RemindersConfig;
  /** The run's identity, handed to tools. runId defaults to a random id. */
  run?: Partial<ToolRunInfo>;
  /** Optional pino-compatible logger for what the events cannot say (e.g. a failing subscriber or poll). */
  logger?: CoreLogger;
  /** OpenTelemetry spans and metrics of the run (GenAI conventions); a no-op without a registered SDK. */
  telemetry?: AgentTelemetryConfig;
}
