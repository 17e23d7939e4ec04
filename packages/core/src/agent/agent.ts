import { AgentBusyError } from "../errors/agent-errors.js";
import type { AgentEndReason, AgentEvent } from "../loop/agent-events.js";
import { assertContinuable } from "../loop/agent-loop.js";
import { type CompactTranscriptOutcome, compactTranscript } from "../loop/compact-transcript.js";
import type { AgentLoopConfig } from "../loop/loop-config.js";
import { newRunId } from "../loop/run-id.js";
import { runLoop } from "../loop/run-loop.js";
import { assertLoopConfig } from "../loop/validate-config.js";
import type { ImageContent } from "../messages/content.js";
import type { AgentMessage, AssistantMessage, UserMessage } from "../messages/message-types.js";
import { addUsage, emptyUsage, type Usage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { AnyAgentTool } from "../tools/tool-types.js";
import { ApprovalRegistry } from "./approval-registry.js";
import { SubscriberList } from "./subscriber-list.js";

/** Identity of the Agent's runs, handed to tools as `ctx.run`. */
export interface AgentRunIdentity {
  /** 0 for a top-level agent; sub-agents are deeper. Default 0. */
  depth?: number;
  sessionId?: string;
  meta?: Record<string, unknown>;
  /** Makes the id of each run. Default: a process-unique id with a random prefix. */
  newRunId?: () => string;
}

/** How an Agent is built: the loop configuration plus its starting state. */
export interface AgentOptions extends Omit<AgentLoopConfig, "messageProvider" | "awaitApproval" | "run"> {
  systemPrompt?: string;
  /** The starting transcript (copied). */
  messages?: AgentMessage[];
  run?: AgentRunIdentity;
}

/** A snapshot of the Agent's state. */
export interface AgentState {
  readonly systemPrompt: string | undefined;
  readonly messages: readonly AgentMessage[];
  readonly model: Model;
  readonly tools: readonly AnyAgentTool[];
  readonly isRunning: boolean;
  /** The assistant message being streamed, while it streams. */
  readonly streamingMessage: AssistantMessage | undefined;
  /** Ids of tool calls that have started and not ended. */
  readonly pendingToolCalls: ReadonlySet<string>;
  /** Why the last run did not complete, if it did not. */
  readonly error: string | undefined;
  /** Usage of every run so far, the current one and added child runs included. */
  readonly usage: Usage;
  /** `usage.cost.total`, in US dollars. */
  readonly cost: number;
}

/** A manual compaction's settings (`Agent.compact`). */
export interface CompactOptions {
  /** Tokens of recent messages kept verbatim. Default: `context.compaction.keepRecentTokens`, else 20 000. */
  keepRecentTokens?: number;
  /** Stops it (as `abort()` does): the transcript stays as it was. */
  signal?: AbortSignal;
}

/** How a run ended (also in the `agent_end` event). */
export interface AgentRunResult {
  messages: AgentMessage[];
  reason: AgentEndReason;
  error?: string;
  usage: Usage;
}

/**
 * The stateful wrapper around the loop: keeps the transcript, queues steering and follow-up
 * messages, fans events out to subscribers and answers approvals.
 * Contract: one run at a time — `prompt`/`continue` while running throw AgentBusyError; after
 * any run (completed, failed or aborted) the Agent is reusable.
 */
export class Agent {
  private readonly options: AgentOptions;
  private systemPrompt: string | undefined;
  private messages: AgentMessage[];
  private model: Model;
  private tools: AnyAgentTool[];
  private readonly subscribers = new SubscriberList<AgentEvent>((error) =>
    this.options.logger?.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "an Agent subscriber threw and was unsubscribed",
    ),
  );
  private readonly approvals = new ApprovalRegistry();
  private readonly steering: AgentMessage[] = [];
  private readonly followUps: AgentMessage[] = [];
  private readonly pendingCalls = new Set<string>();
  private streaming: AssistantMessage | undefined;
  private error: string | undefined;
  private baseUsage = emptyUsage();
  private runUsage: Usage | undefined;
  private controller: AbortController | undefined;
  private idle: Promise<void> | undefined;
  private lastEnd: AgentEndEvent | undefined;
  private readonly onEvent = (event: AgentEvent): void => {
    this.apply(event);
    this.subscribers.dispatch(event);
  };

  /** Contract: throws InvalidAgentConfigError when the model, streamFn or limits are unusable. */
  constructor(options: AgentOptions) {
    assertLoopConfig(options);
    this.options = options;
    this.systemPrompt = options.systemPrompt;
    this.messages = options.messages ? options.messages.slice() : [];
    this.model = options.model;
    this.tools = options.tools ? options.tools.slice() : [];
  }

  /** A snapshot of the current state (a new object per read). */
  get state(): AgentState {
    const usage = this.runUsage ? addUsage(addUsage(emptyUsage(), this.baseUsage), this.runUsage) : this.copyBase();
    return {
      systemPrompt: this.systemPrompt,
      messages: this.messages,
      model: this.model,
      tools: this.tools,
      isRunning: this.controller !== undefined,
      streamingMessage: this.streaming,
      pendingToolCalls: this.pendingCalls,
      error: this.error,
      usage,
      cost: usage.cost.total,
    };
  }

  /**
   * Starts a run with a text (and optional images) or ready messages.
   * Contract: throws AgentBusyError while a run is in progress; resolves when the run ends,
   * never rejects (a failure is in the result, `state.error` and `agent_end`).
   */
  prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<AgentRunResult> {
    if (this.controller) throw new AgentBusyError("prompt()");
    const prompts = typeof input === "string" ? [userMessage(input, images)] : Array.isArray(input) ? input : [input];
    return this.start(prompts);
  }

  /**
   * Continues from the current transcript (ending in a user message or tool results), or with
   * queued follow-ups when it ends with an assistant message (e.g. `followUp("try again")` after an error).
   * Contract: throws AgentBusyError while running, InvalidContinueError when the transcript is
   * empty or ends with an assistant message and no follow-up is queued.
   */
  continue(): Promise<AgentRunResult> {
    if (this.controller) throw new AgentBusyError("continue()");
    const last = this.messages[this.messages.length - 1] as { role?: string } | undefined;
    if (last?.role === "assistant" && this.followUps.length > 0) return this.start(this.followUps.splice(0));
    assertContinuable(this.messages);
    return this.start([]);
  }

  /** Queues a message that interrupts the current tool batch and is sent before the next model call. */
  steer(message: AgentMessage | string): void {
    this.steering.push(typeof message === "string" ? userMessage(message) : message);
  }

  /** Queues a message sent when the agent would otherwise stop; it starts a new turn. */
  followUp(message: AgentMessage | string): void {
    this.followUps.push(typeof message === "string" ? userMessage(message) : message);
  }

  /** Aborts the current run (no-op when idle). `reason` appears in the aborted message. */
  abort(reason?: string): void {
    this.controller?.abort(reason);
  }

  /** Resolves when no run is in progress. */
  waitForIdle(): Promise<void> {
    return this.idle ?? Promise.resolve();
  }

  /**
   * Registers a listener for every event, called synchronously in registration order.
   * Contract: returns an unsubscribe function; a listener that throws is removed.
   */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.subscribers.add(listener);
  }

  /** Approves a pending tool call (`approval_required`). Throws UnknownApprovalError if none is pending. */
  approve(approvalId: string): void {
    this.approvals.decide(approvalId, { approved: true });
  }

  /** Denies a pending tool call; the model sees `reason`. Throws UnknownApprovalError if none is pending. */
  deny(approvalId: string, reason?: string): void {
    this.approvals.decide(approvalId, reason === undefined ? { approved: false } : { approved: false, reason });
  }

  /** Ids of approvals waiting for an answer. */
  pendingApprovals(): string[] {
    return this.approvals.ids();
  }

  /** Adds usage and cost from elsewhere (a sub-agent's run) to this Agent's, and to the current run's. */
  addUsage(usage: Usage): void {
    addUsage(this.runUsage ?? this.baseUsage, usage);
  }

  /** Clears transcript, queues, error and usage. Contract: throws AgentBusyError while running. */
  reset(): void {
    if (this.controller) throw new AgentBusyError("reset()");
    this.messages = [];
    this.steering.length = 0;
    this.followUps.length = 0;
    this.pendingCalls.clear();
    this.streaming = undefined;
    this.error = undefined;
    this.baseUsage = emptyUsage();
  }

  /** Replaces the model for the next run. */
  setModel(model: Model): void {
    this.model = model;
  }

  /** Replaces the tools for the next run. */
  setTools(tools: AnyAgentTool[]): void {
    this.tools = tools.slice();
  }

  /** Replaces the system prompt for the next run. */
  setSystemPrompt(systemPrompt: string | undefined): void {
    this.systemPrompt = systemPrompt;
  }

  /**
   * Summarises the older messages now (a manual compaction, e.g. a `/compact` command) through the loop's own
   * compaction entry: `pre_compact` hooks, the summary call, the post-compaction steps, the recently read files
   * re-attached, and `compaction_start` / `compaction` / `compaction_failed` to subscribers.
   * Contract: throws AgentBusyError while a run (or another compaction) is in progress, and the Agent counts as running
   * meanwhile; `abort()` or `options.signal` stop it; a stopped or failed compaction leaves the transcript as it was;
   * never rejects otherwise. The summary's usage is added to the Agent's.
   */
  async compact(options: CompactOptions = {}): Promise<CompactTranscriptOutcome> {
    if (this.controller) throw new AgentBusyError("compact()");
    const controller = new AbortController();
    this.controller = controller;
    const stop = (): void => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener("abort", stop, { once: true });
    let release!: () => void;
    this.idle = new Promise((resolve) => {
      release = resolve;
    });
    const identity = this.options.run;
    try {
      const outcome = await compactTranscript({
        messages: this.messages,
        systemPrompt: this.systemPrompt,
        context: this.options.context,
        ...(options.keepRecentTokens === undefined ? {} : { keepRecentTokens: options.keepRecentTokens }),
        model: this.model,
        config: this.options,
        run: {
          runId: newRunId(),
          depth: identity?.depth ?? 0,
          ...(identity?.sessionId === undefined ? {} : { sessionId: identity.sessionId }),
          ...(identity?.meta === undefined ? {} : { meta: identity.meta }),
        },
        turn: 0,
        signal: controller.signal,
        emit: this.onEvent,
      });
      if (outcome.reply) addUsage(this.baseUsage, outcome.reply.usage);
      return outcome;
    } finally {
      options.signal?.removeEventListener("abort", stop);
      this.controller = undefined;
      this.idle = undefined;
      release();
    }
  }

  /** Replaces the transcript. Contract: throws AgentBusyError while running. */
  replaceMessages(messages: AgentMessage[]): void {
    if (this.controller) throw new AgentBusyError("replaceMessages()");
    this.messages = messages.slice();
  }

  private async start(prompts: AgentMessage[]): Promise<AgentRunResult> {
    const controller = new AbortController();
    this.controller = controller;
    this.error = undefined;
    const usage = emptyUsage();
    this.runUsage = usage;
    let release!: () => void;
    this.idle = new Promise((resolve) => {
      release = resolve;
    });
    const identity = this.options.run;
    const config: AgentLoopConfig = {
      ...this.options,
      model: this.model,
      tools: this.tools,
      messageProvider: this.provider,
      awaitApproval: this.approvals.wait,
      run: {
        runId: identity?.newRunId ? identity.newRunId() : newRunId(),
        depth: identity?.depth ?? 0,
        ...(identity?.sessionId === undefined ? {} : { sessionId: identity.sessionId }),
        ...(identity?.meta === undefined ? {} : { meta: identity.meta }),
      },
    };
    const context =
      this.systemPrompt === undefined
        ? { messages: this.messages }
        : { systemPrompt: this.systemPrompt, messages: this.messages };
    this.lastEnd = undefined;
    try {
      const added = await runLoop(prompts, context, config, controller.signal, this.onEvent, { usage });
      const end = this.lastEnd as AgentEndEvent | undefined;
      const result: AgentRunResult = { messages: added, reason: end?.reason ?? "completed", usage };
      if (end?.error !== undefined) result.error = end.error;
      return result;
    } finally {
      addUsage(this.baseUsage, usage);
      this.runUsage = undefined;
      this.controller = undefined;
      this.streaming = undefined;
      this.pendingCalls.clear();
      this.idle = undefined;
      release();
    }
  }

  private readonly provider = {
    pollSteering: (): AgentMessage[] => (this.steering.length > 0 ? this.steering.splice(0) : NONE),
    pollFollowUp: (): AgentMessage[] => (this.followUps.length > 0 ? this.followUps.splice(0) : NONE),
  };

  private apply(event: AgentEvent): void {
    switch (event.type) {
      case "message_start":
        if ((event.message as { role?: string }).role === "assistant")
          this.streaming = event.message as AssistantMessage;
        break;
      case "message_update":
        this.streaming = event.message;
        break;
      case "message_end":
        if ((event.message as { role?: string }).role === "assistant") this.streaming = undefined;
        this.messages.push(event.message);
        break;
      case "retry":
      case "model_fallback":
        this.streaming = undefined;
        break;
      case "compaction":
        this.messages = event.messages.slice();
        break;
      case "tool_execution_start":
        this.pendingCalls.add(event.toolCallId);
        break;
      case "tool_execution_end":
        this.pendingCalls.delete(event.toolCallId);
        break;
      case "agent_end":
        this.lastEnd = event;
        if (event.reason !== "completed") this.error = event.error ?? event.reason;
        break;
      default:
        break;
    }
  }

  private copyBase(): Usage {
    return addUsage(emptyUsage(), this.baseUsage);
  }
}

const NONE: AgentMessage[] = [];

type AgentEndEvent = Extract<AgentEvent, { type: "agent_end" }>;

function userMessage(text: string, images?: ImageContent[]): UserMessage {
  return {
    role: "user",
    content: images && images.length > 0 ? [{ type: "text", text }, ...images] : text,
    timestamp: Date.now(),
  };
}
