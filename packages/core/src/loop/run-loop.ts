import { randomUUID } from "node:crypto";
import { DEFAULT_TOOL_TIMEOUTS } from "../executor/abort-reasons.js";
import { ToolExecutor } from "../executor/tool-executor.js";
import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../messages/message-types.js";
import { addUsage, emptyUsage, type Usage } from "../messages/usage.js";
import { defaultRetryStrategy } from "../retry/retry-strategy.js";
import { toLlmTool } from "../tools/define-tool.js";
import type { AnyAgentTool, ToolRunInfo } from "../tools/tool-types.js";
import { AbortHooks } from "./abort-hooks.js";
import type { AgentEndReason, AgentEvent } from "./agent-events.js";
import type { AgentContext, AgentLoopConfig } from "./loop-config.js";
import { requestAssistant } from "./model-request.js";
import { runPostLoopPolicies, runPostTurnPolicies, runPreTurnPolicies } from "./policy-runner.js";
import { prepareRequest, summarize } from "./request-context.js";
import { appendMessage, policyContext, type RunState } from "./run-state.js";

const DEFAULT_MAX_TURNS = 100;
const DEFAULT_MAX_OUTPUT_RECOVERIES = 3;
const DEFAULT_ABORT_GRACE_MS = 2000;

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
export async function runLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
  hooks: RunHooks = {},
): Promise<AgentMessage[]> {
  const runSignal = signal ?? new AbortController().signal;
  const run: ToolRunInfo = {
    runId: config.run?.runId ?? randomUUID(),
    depth: config.run?.depth ?? 0,
  };
  if (config.run?.sessionId !== undefined) run.sessionId = config.run.sessionId;
  if (config.run?.meta !== undefined) run.meta = config.run.meta;
  const added: AgentMessage[] = [];
  let reason: AgentEndReason = "completed";
  let error: string | undefined;
  const usage = hooks.usage ?? emptyUsage();
  emit({ type: "agent_start", runId: run.runId });
  const abortHooks = new AbortHooks(runSignal);
  runSignal.addEventListener("abort", abortHooks.fire, { once: true });
  try {
    const state = createState(prompts, context, config, runSignal, abortHooks, emit, run, added, usage);
    abortHooks.watch(() => state.request?.abort(runSignal.reason));
    ({ reason, error } = await turns(state));
  } catch (thrown) {
    reason = runSignal.aborted ? "aborted" : "error";
    error = `The agent loop failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
  } finally {
    runSignal.removeEventListener("abort", abortHooks.fire);
  }
  const end: AgentEvent = { type: "agent_end", messages: added, reason, usage };
  if (error !== undefined) end.error = error;
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
): RunState {
  const tools = new Map<string, AnyAgentTool>();
  for (const tool of config.tools ?? []) tools.set(tool.name, tool);
  const llmTools = config.tools && config.tools.length > 0 ? config.tools.map(toLlmTool) : undefined;
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
    retry: config.retryStrategy ?? defaultRetryStrategy(),
    tools,
    llmTools,
    timeouts: { ...DEFAULT_TOOL_TIMEOUTS, ...config.toolExecution?.timeouts },
    turn: 0,
  };
}

type RunEnd = { reason: AgentEndReason; error?: string };

async function turns(state: RunState): Promise<RunEnd> {
  const { config, signal, emit } = state;
  const maxTurns = config.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxRecoveries = config.maxOutputRecoveries ?? DEFAULT_MAX_OUTPUT_RECOVERIES;
  const streaming = config.toolExecution?.streaming !== false;
  let recoveries = 0;
  const steered: AgentMessage[] = [];
  const newExecutor = (): ToolExecutor => executorFor(state, steered);

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

      const pre = await runPreTurnPolicies(state);
      if (pre.kind === "stop") {
        emit({ type: "turn_end", turn: state.turn, toolResults: [] });
        return { reason: "policy", error: pre.reason ?? "Stopped by a pre-turn policy" };
      }
      if (pre.kind === "inject") for (const m of pre.messages) appendMessage(state, m);

      const prepared = await prepareRequest(state);
      if (!prepared.ok) {
        emit({ type: "turn_end", turn: state.turn, toolResults: [] });
        return { reason: "error", error: prepared.error };
      }
      if (signal.aborted) {
        emit({ type: "turn_end", turn: state.turn, toolResults: [] });
        return aborted(state);
      }
      const response = await requestAssistant(state, prepared.context, {
        buildContext: async () => {
          const again = await prepareRequest(state);
          return again.ok ? again.context : undefined;
        },
        forceCompaction: () => summarize(state),
        newExecutor: streaming && state.tools.size > 0 ? newExecutor : undefined,
      });
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
      const results = await finishBatch(state, executor);
      emit({ type: "turn_end", turn: state.turn, message, toolResults: results });
      if (signal.aborted) return aborted(state);

      if (cutOff) {
        recoveries++;
        if (recoveries > maxRecoveries) {
          return { reason: "length", error: `The output limit cut the model off ${recoveries} times` };
        }
        if (calls.length === 0) state.pending.push(continueMessage());
      }

      const post = await runPostTurnPolicies(state, message, results);
      if (post.kind === "stop") return { reason: "policy", error: post.reason ?? "Stopped by a post-turn policy" };
      if (post.kind === "inject") state.pending.push(...post.messages);

      if (steered.length > 0) state.pending.push(...steered.splice(0));
      else await pollInto(state, "steering");
      if (calls.length === 0 && state.pending.length === 0) break;
    }
    // Outer loop: the agent would stop; follow-ups, then post-loop policies, may start new turns.
    await pollInto(state, "followUp");
    if (state.pending.length > 0) continue;
    const post = await runPostLoopPolicies(state);
    if (post.kind === "continue" && post.messages.length > 0) {
      state.pending.push(...post.messages);
      continue;
    }
    return { reason: "completed" };
  }
}

function executorFor(state: RunState, steered: AgentMessage[]): ToolExecutor {
  const { config } = state;
  const policies = config.preDispatchPolicies;
  const provider = config.messageProvider;
  return new ToolExecutor({
    tools: state.tools,
    maxConcurrency: config.toolExecution?.maxConcurrency ?? 10,
    timeouts: state.timeouts,
    abortGraceMs: config.toolExecution?.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS,
    emit: state.emit,
    run: state.run,
    watchAbort: (hook) => state.abortHooks.watch(hook),
    addUsage: (extra) => {
      addUsage(state.usage, extra);
    },
    dispatch:
      policies && policies.length > 0
        ? (call: ToolCall) => ({
            policies,
            context: policyContext(state),
            awaitApproval: config.awaitApproval,
            announce: (request) =>
              state.emit({
                type: "approval_required",
                approvalId: request.approvalId,
                toolCall: request.toolCall,
                reason: request.reason,
                timeoutMs: request.timeoutMs,
              }),
            approvalId: `${state.run.runId}:${call.id}`,
          })
        : undefined,
    pollSteering: provider ? () => provider.pollSteering() : undefined,
    onSteering: (messages) => {
      steered.push(...messages);
    },
  });
}

async function finishBatch(state: RunState, executor: ToolExecutor | undefined): Promise<ToolResultMessage[]> {
  if (!executor) return [];
  const results = await executor.finish();
  for (const result of results) appendMessage(state, result);
  return results;
}

function flushPending(state: RunState): void {
  if (state.pending.length === 0) return;
  const pending = state.pending;
  state.pending = [];
  for (const m of pending) appendMessage(state, m);
}

async function pollInto(state: RunState, which: "steering" | "followUp"): Promise<void> {
  const provider = state.config.messageProvider;
  if (!provider) return;
  const messages = which === "steering" ? await provider.pollSteering() : await provider.pollFollowUp();
  if (messages.length > 0) state.pending.push(...messages);
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
