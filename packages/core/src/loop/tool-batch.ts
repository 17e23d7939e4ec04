import type { ExecutorOptions, ToolExecutor } from "../executor/tool-executor.js";
import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, ToolResultMessage } from "../messages/message-types.js";
import { addUsage } from "../messages/usage.js";
import { freezeExecutionContext } from "../tools/execution-context.js";
import { appendMessage, policyContext, type RunState } from "./run-state.js";
import { outputCompressorFor } from "./tool-output-compressor.js";

const DEFAULT_ABORT_GRACE_MS = 2000;

/** The executor settings of a run, built once at its start and shared by its batches (and its execution context). */
export function executorOptionsFor(state: RunState, steered: AgentMessage[]): ExecutorOptions {
  const { config } = state;
  const policies = config.preDispatchPolicies;
  const provider = config.messageProvider;
  const compressOutput = outputCompressorFor(state);
  const source = config.executionContext;
  // One literal with every field (undefined when unset), not spreads: see keepShape for why the shape matters.
  return {
    execution: source ? freezeExecutionContext(source(state.run), state.run) : undefined,
    compressOutput,
    tools: state.tools,
    maxConcurrency: config.toolExecution?.maxConcurrency ?? 10,
    timeouts: state.timeouts,
    abortGraceMs: config.toolExecution?.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS,
    emit: state.emit,
    run: state.run,
    telemetry: state.telemetry,
    watchAbort: state.abortHooks.watch,
    addUsage: (extra) => {
      addUsage(state.usage, extra);
    },
    dispatch:
      policies && policies.length > 0
        ? (call: ToolCall) => ({
            policies,
            context: policyContext(state),
            awaitApproval: state.reminders?.watchApprovals(config.awaitApproval) ?? config.awaitApproval,
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
    onPollError: (error) =>
      config.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "polling steering messages failed",
      ),
  };
}

/** Appends the batch's results in call order; synchronous when every call has already finished. */
export function finishBatch(
  state: RunState,
  executor: ToolExecutor | undefined,
): ToolResultMessage[] | Promise<ToolResultMessage[]> {
  if (!executor) return [];
  const finished = executor.finish();
  if (finished instanceof Promise) {
    return finished.then((results) => {
      for (const result of results) appendMessage(state, result);
      return results;
    });
  }
  for (const result of finished) appendMessage(state, result);
  return finished;
}
