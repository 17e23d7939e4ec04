import { DEFAULT_TOOL_TIMEOUTS } from "../executor/abort-reasons.js";
import { ToolExecutor } from "../executor/tool-executor.js";
import { applyHooks } from "../hooks/apply-hooks.js";
import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, AssistantMessage } from "../messages/message-types.js";
import { emptyUsage, type Usage } from "../messages/usage.js";
import { ReminderPipeline } from "../reminders/reminder-pipeline.js";
import { defaultRetryStrategy } from "../retry/retry-strategy.js";
import { startRunTelemetry } from "../telemetry/run-telemetry.js";
import type { ToolRunInfo } from "../tools/tool-types.js";
import { AbortHooks, NO_ABORT_HOOKS } from "./abort-hooks.js";
import type { AgentEndReason, AgentEvent } from "./agent-events.js";
import type { AgentContext, AgentLoopConfig } from "./loop-config.js";
import { type RequestHooks, requestAssistant } from "./model-request.js";
import { flushPending, pollInto } from "./pending-messages.js";
import { runPostLoopPolicies, runPostTurnPolicies, runPreTurnPolicies } from "./policy-runner.js";
import { prepareRequest, summarize } from "./request-context.js";
import { NEVER_ABORTED, releaseRequestController } from "./request-signals.js";
import { newRunId } from "./run-id.js";
import { appendMessage, type RunState } from "./run-state.js";
import { executorOptionsFor, finishBatch } from "./tool-batch.js";
import { llmToolsOf, toolIndex } from "./tool-index.js";

const DEFAULT_MAX_TURNS = 100;
const DEFAULT_MAX_OUTPUT_RECOVERIES = 3;

/** Text of the error result given to a tool call the output limit cut off. */
export const CUT_OFF_TOOL_CALL_TEXT =
  "This tool call was cut off by the output token limit before its arguments were complete, so it was not run. " +
  "Issue it again with shorter arguments, or split the work into smaller calls.";

/** The user message that asks the model to go on after a `length` stop without tool calls. */
export const CONTINUE_AFTER_LENGTH_TEXT =
  "Your previous response was cut off by the output token limit. Continue exactly where you left off.";

/** Options the Agent passes that the public entry points do not expose. */
export interface RunHooks {
  /** The run's usage accumulator (the Agent reads it live). Default: a fresh one. */
  usage?: Usage;
}

/**
 * The loop (seed 000's nested loops): an inner loop of turns and tool batches with steering
 * checks, inside an outer loop of follow-ups. Contract: never rejects; always emits exactly one
 * `agent_start` and one `agent_end`; resolves to the messages the run added.
 */
export function runLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  configured: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
  hooks: RunHooks = {},
): Promise<AgentMessage[]> {
  // Not async itself: the untraced path hands back runWith's own promise (no extra promise or ticks per run).
  let telemetry: RunState["telemetry"];
  let config: AgentLoopConfig;
  let run: ToolRunInfo;
  try {
    config = applyHooks(configured);
    run = runInfo(config.run);
    telemetry = startRunTelemetry(config.telemetry, config.model, run);
  } catch (error) {
    return Promise.reject(error);
  }
  const usage = hooks.usage ?? emptyUsage();
  if (telemetry === undefined) return runWith(prompts, context, config, signal, emit, run, usage, undefined);
  // The run's span is active for all of its work: event handlers (and what they log or send) are in its trace too.
  const traced = telemetry;
  return traced.within(() => runWith(prompts, context, config, signal, emit, run, usage, traced));
}

/**
 * The run's identity handed to tools. Whole literals, not fields added one by one: such an object's V8 map is dropped
 * by a full GC between runs, and with it the optimized code that read it (see keepShape).
 */
function runInfo(given: Partial<ToolRunInfo> | undefined): ToolRunInfo {
  const runId = given?.runId ?? newRunId();
  const depth = given?.depth ?? 0;
  const sessionId = given?.sessionId;
  const meta = given?.meta;
  if (meta === undefined) return sessionId === undefined ? { runId, depth } : { runId, depth, sessionId };
  return sessionId === undefined ? { runId, depth, meta } : { runId, depth, sessionId, meta };
}

async function runWith(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
  run: ToolRunInfo,
  usage: Usage,
  telemetry: RunState["telemetry"],
): Promise<AgentMessage[]> {
  const runSignal = signal ?? NEVER_ABORTED;
  const added: AgentMessage[] = [];
  let reason: AgentEndReason = "completed";
  let error: string | undefined;
  const spanContext = telemetry?.spanContext;
  emit(
    spanContext === undefined
      ? { type: "agent_start", runId: run.runId }
      : { type: "agent_start", runId: run.runId, spanContext },
  );
  const abortHooks = signal ? new AbortHooks(signal) : NO_ABORT_HOOKS;
  if (signal) signal.addEventListener("abort", abortHooks.fire, { once: true });
  let state: RunState | undefined;
  try {
    const live = createState(prompts, context, config, runSignal, abortHooks, emit, run, added, usage, telemetry);
    state = live;
    abortHooks.watch(() => live.request?.abort(runSignal.reason));
    ({ reason, error } = await turns(live));
  } catch (thrown) {
    reason = runSignal.aborted ? "aborted" : "error";
    error = `The agent loop failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
  } finally {
    if (signal) signal.removeEventListener("abort", abortHooks.fire);
    releaseRequestController(state?.request);
  }
  const end: AgentEvent = { type: "agent_end", messages: added, reason, usage };
  if (error !== undefined) end.error = error;
  telemetry?.end(reason, usage, error);
  emit(end);
  return added;
}

function createState(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal: AbortSignal,
  abortHooks: AbortHooks,
  emit: (event: AgentEvent) => void,
  run: ToolRunInfo,
  added: AgentMessage[],
  usage: Usage,
  telemetry: RunState["telemetry"],
): RunState {
  // applyHooks wraps the tools for this run alone when post_tool_use hooks are set: nothing would find them again.
  const index = toolIndex(config.tools, !config.hooks?.post_tool_use?.length);
  const tools = index.byName;
  const llmTools = llmToolsOf(index);
  return {
    config,
    emit,
    signal,
    abortHooks,
    request: undefined,
    run,
    systemPrompt: context.systemPrompt,
    messages: context.messages.slice(),
    added,
    pending: prompts.slice(),
    model: config.model,
    fallbackIndex: 0,
    usage,
    retry: config.retryStrategy ?? DEFAULT_RETRY,
    tools,
    llmTools,
    timeouts: timeoutsOf(config),
    turn: 0,
    reminders: remindersOf(config),
    telemetry,
    lastRequestTokens: undefined,
  };
}

/** Shared by every run without its own strategy (it keeps no state); jitter reads Math.random at each decision. */
const DEFAULT_RETRY = defaultRetryStrategy({ random: () => Math.random() });

function timeoutsOf(config: AgentLoopConfig): RunState["timeouts"] {
  const custom = config.toolExecution?.timeouts;
  return custom === undefined ? DEFAULT_TOOL_TIMEOUTS : { ...DEFAULT_TOOL_TIMEOUTS, ...custom };
}

function remindersOf(config: AgentLoopConfig): ReminderPipeline | undefined {
  if (!config.reminders || config.reminders.sources.length === 0) return undefined;
  return new ReminderPipeline(config.reminders, (error) =>
    config.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, "a reminder source failed"),
  );
}

type RunEnd = { reason: AgentEndReason; error?: string };

async function turns(state: RunState): Promise<RunEnd> {
  const { config, signal, emit } = state;
  const maxTurns = config.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxRecoveries = config.maxOutputRecoveries ?? DEFAULT_MAX_OUTPUT_RECOVERIES;
  const streaming = config.toolExecution?.streaming !== false;
  let recoveries = 0;
  const steered: AgentMessage[] = [];
  const executorOptions = executorOptionsFor(state, steered);
  const newExecutor = (): ToolExecutor => new ToolExecutor(executorOptions);
  const hooks: RequestHooks = {
    buildContext: async () => {
      const again = await prepareRequest(state);
      return again.ok ? again.context : undefined;
    },
    forceCompaction: () => summarize(state),
    newExecutor: streaming && state.tools.size > 0 ? newExecutor : undefined,
  };

  for (;;) {
    // Inner loop: turns and their tool batches, while there are tool results or messages to answer.
    for (;;) {
      if (signal.aborted) return aborted(state);
      if (state.turn >= maxTurns) {
        return { reason: "max_turns", error: `Stopped after ${maxTurns} turns (maxTurns reached)` };
      }
      state.turn++;
      emit({ type: "turn_start", turn: state.turn });
      flushPending(state);

      if (state.reminders) {
        const reminder = await state.reminders.collect(state.messages, state.turn, signal);
        if (reminder) appendMessage(state, reminder);
      }

      // Awaited only when it is asynchronous: each needless await costs a turn of the microtask queue.
      let prepared = prepareRequest(state);
      if (prepared instanceof Promise) prepared = await prepared;
      if (signal.aborted) {
        emit({ type: "turn_end", turn: state.turn, toolResults: [] });
        return aborted(state);
      }
      if (!prepared.ok) {
        emit({ type: "turn_end", turn: state.turn, toolResults: [] });
        return { reason: "error", error: prepared.error };
      }
      // Seed 000's pre-turn point: after the context is transformed and converted for the model, before the call.
      // Stop and Inject both end the turn and the run; injected messages are kept in the transcript for the next run.
      if (config.preTurnPolicies && config.preTurnPolicies.length > 0) {
        const pre = await runPreTurnPolicies(state, prepared.context);
        if (pre.kind !== "continue") {
          if (pre.kind === "inject") for (const m of pre.messages) appendMessage(state, m);
          emit({ type: "turn_end", turn: state.turn, toolResults: [] });
          if (pre.kind === "stop") return { reason: "policy", error: pre.reason ?? "Stopped by a pre-turn policy" };
          return { reason: "policy" };
        }
      }
      // Awaited only when it is asynchronous (a zero-latency model answers synchronously).
      let response = requestAssistant(state, prepared.context, hooks);
      if (response instanceof Promise) response = await response;
      const message = response.message;
      if (!response.started) emit({ type: "message_start", message });
      state.messages.push(message);
      state.added.push(message);
      emit({ type: "message_end", message });

      const calls = toolCallsOf(message);
      const executor = response.executor ?? (calls.length > 0 ? newExecutor() : undefined);
      if (response.kind !== "done") {
        // Calls a streaming executor already started still need results; nothing new is run.
        executor?.cancelAll(response.kind === "aborted" ? "user" : "discarded");
        for (const call of calls) if (!executor?.has(call.id)) executor?.addFailed(call, cancelText(response.kind));
        const results = await finishBatch(state, executor);
        emit({ type: "turn_end", turn: state.turn, message, toolResults: results });
        if (response.kind === "aborted") return aborted(state);
        return { reason: "error", error: message.errorMessage ?? "The model call failed" };
      }

      const cutOff = message.stopReason === "length";
      for (const call of calls) {
        if (!executor || executor.has(call.id)) continue;
        if (call.incomplete || (cutOff && streaming && executor === response.executor)) {
          executor.addFailed(call, CUT_OFF_TOOL_CALL_TEXT);
        } else executor.add(call);
      }
      let results = finishBatch(state, executor);
      if (results instanceof Promise) results = await results;
      emit({ type: "turn_end", turn: state.turn, message, toolResults: results });
      if (signal.aborted) return aborted(state);

      if (cutOff) {
        recoveries++;
        if (recoveries > maxRecoveries) {
          return { reason: "length", error: `The output limit cut the model off ${recoveries} times` };
        }
        if (calls.length === 0) state.pending.push(continueMessage());
      }

      if (config.postTurnPolicies && config.postTurnPolicies.length > 0) {
        const post = await runPostTurnPolicies(state, message, results);
        if (post.kind === "stop") return { reason: "policy", error: post.reason ?? "Stopped by a post-turn policy" };
        if (post.kind === "inject") state.pending.push(...post.messages);
      }

      if (steered.length > 0) state.pending.push(...steered.splice(0));
      else {
        const polling = pollInto(state, "steering");
        if (polling) await polling;
      }
      if (calls.length === 0 && state.pending.length === 0) break;
    }
    // Outer loop: the agent would stop; follow-ups, then post-loop policies, may start new turns.
    const polling = pollInto(state, "followUp");
    if (polling) await polling;
    if (state.pending.length > 0) continue;
    if (!config.postLoopPolicies || config.postLoopPolicies.length === 0) return { reason: "completed" };
    const post = await runPostLoopPolicies(state);
    if (post.kind === "continue" && post.messages.length > 0) {
      state.pending.push(...post.messages);
      continue;
    }
    return { reason: "completed" };
  }
}

function toolCallsOf(message: AssistantMessage): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const block of message.content) if (block.type === "toolCall") calls.push(block);
  return calls;
}

function aborted(state: RunState): RunEnd {
  const reason = state.signal.reason;
  return { reason: "aborted", error: typeof reason === "string" ? `Aborted: ${reason}` : "Aborted by the user" };
}

function cancelText(kind: "aborted" | "error"): string {
  return kind === "aborted"
    ? "Tool execution was aborted: user interrupted"
    : "Tool call not run: the model response that issued it failed";
}

function continueMessage(): AgentMessage {
  return { role: "user", content: CONTINUE_AFTER_LENGTH_TEXT, timestamp: Date.now() };
}
