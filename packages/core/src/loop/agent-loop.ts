import { InvalidContinueError } from "../errors/agent-errors.js";
import type { AgentMessage } from "../messages/message-types.js";
import { EventStream } from "../stream/event-stream.js";
import type { AgentEvent } from "./agent-events.js";
import type { AgentContext, AgentLoopConfig } from "./loop-config.js";
import { runLoop } from "./run-loop.js";
import { assertLoopConfig } from "./validate-config.js";

/**
 * Starts a run with new prompt messages. Contract: throws InvalidAgentConfigError for an unusable
 * config; otherwise returns at once; the stream yields every
 * event of the run and `result()` resolves to the messages the run added (prompts included);
 * it never rejects, failures end the run with `agent_end` (reason "error" or "aborted").
 */
export function agentLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
): EventStream<AgentEvent, AgentMessage[]> {
  assertLoopConfig(config);
  return startRun(prompts, context, config, signal);
}

/**
 * Continues from an existing context (e.g. after tool results or an error).
 * Contract: throws InvalidContinueError for an empty context or one whose last message is
 * from the assistant; otherwise behaves as `agentLoop` without new prompts.
 */
export function agentLoopContinue(
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
): EventStream<AgentEvent, AgentMessage[]> {
  assertLoopConfig(config);
  assertContinuable(context.messages);
  return startRun([], context, config, signal);
}

/** Throws InvalidContinueError unless the transcript can be continued. */
export function assertContinuable(messages: readonly AgentMessage[]): void {
  if (messages.length === 0) throw new InvalidContinueError("Cannot continue: the context has no messages");
  const last = messages[messages.length - 1] as { role?: string };
  if (last.role === "assistant") {
    throw new InvalidContinueError(
      "Cannot continue from an assistant message: add a user message or tool results first",
    );
  }
}

function startRun(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
): EventStream<AgentEvent, AgentMessage[]> {
  const stream = new EventStream<AgentEvent, AgentMessage[]>();
  const emit = (event: AgentEvent): void => stream.push(event);
  void runLoop(prompts, context, config, signal, emit).then((added) => stream.end(added));
  return stream;
}
