import { type AgentEvent, type AgentLoopConfig, agentLoop, emptyUsage, type Model, type StreamFn } from "@chorus/core";
import type { ChildRunner, ChildRunOutcome } from "./subagent-types.js";

/** Options of `coreChildRunner`. Contract: every field is optional; a profile's own model/StreamFn wins. */
export interface CoreChildRunnerOptions {
  /** Used when a profile names no model / StreamFn. */
  model?: Model;
  streamFn?: StreamFn;
  /** Extra loop settings for every child (retry, timeouts, compaction, …). Tools, run and policies are set per child. */
  loop?: Omit<Partial<AgentLoopConfig>, "model" | "streamFn" | "tools" | "run">;
}

type AgentEnd = Extract<AgentEvent, { type: "agent_end" }>;

/**
 * Runs each child on core's `agentLoop`, with the child's run identity, tools and policies.
 * Contract: never rejects; the outcome's text is the child's last assistant text (or the error),
 * its usage is the run's usage as reported by `agent_end` (the child's own children included).
 * Children cannot ask for approval: an `ask` inside a child is denied.
 */
export function coreChildRunner(options: CoreChildRunnerOptions = {}): ChildRunner {
  return async (request): Promise<ChildRunOutcome> => {
    const model = request.profile.model ?? options.model;
    const streamFn = request.profile.streamFn ?? options.streamFn;
    if (!model || !streamFn) {
      return { status: "failed", text: `No model configured for sub-agent "${request.agent}".`, usage: emptyUsage() };
    }
    const config: AgentLoopConfig = {
      ...options.loop,
      model,
      streamFn,
      tools: request.tools,
      run: request.run,
      preDispatchPolicies: [...request.preDispatchPolicies, ...(options.loop?.preDispatchPolicies ?? [])],
      ...(request.profile.maxTurns !== undefined ? { maxTurns: request.profile.maxTurns } : {}),
    };
    const stream = agentLoop(
      [{ role: "user", content: request.task, timestamp: Date.now() }],
      { systemPrompt: request.systemPrompt, messages: [] },
      config,
      request.signal,
    );
    let end: AgentEnd | undefined;
    for await (const event of stream) if (event.type === "agent_end") end = event;
    if (!end) return { status: "failed", text: "The sub-agent ended without a result.", usage: emptyUsage() };
    const text = lastAssistantText(end.messages);
    if (end.reason === "completed") return { status: "completed", text, usage: end.usage };
    return {
      status: end.reason === "aborted" ? "aborted" : "failed",
      text: end.error ?? (text || end.reason),
      usage: end.usage,
    };
  };
}

function lastAssistantText(messages: AgentEnd["messages"]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: string; content?: unknown };
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    const text = (message.content as { type: string; text?: string }[])
      .filter((c) => c.type === "text")
      .map((c) => c.text ?? "")
      .join("");
    if (text) return text;
  }
  return "";
}
