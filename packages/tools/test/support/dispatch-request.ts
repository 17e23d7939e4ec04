import type { AnyAgentTool } from "@chorus/core";
import type { DispatchRequest } from "../../src/policy/dispatch-request.js";

/** A pre-dispatch request for calling a policy directly. */
export function dispatchRequest(
  toolName: string,
  meta: Record<string, unknown> = {},
  args: Record<string, unknown> = {},
): DispatchRequest {
  return {
    messages: [],
    turn: 1,
    model: {
      id: "m",
      provider: "p",
      api: "scripted",
      contextWindow: 1000,
      maxOutput: 100,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      capabilities: { tools: true, thinking: false, images: false },
    },
    run: { runId: "run-1", depth: 0, meta },
    signal: new AbortController().signal,
    toolCall: { type: "toolCall", id: "c1", name: toolName, arguments: args },
    tool: { name: toolName } as AnyAgentTool,
    args,
  };
}
