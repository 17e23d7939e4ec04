import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../messages/message-types.js";
import type { PostLoopDecision, PostTurnDecision, PreTurnDecision } from "../policies/policy-types.js";
import type { StreamContext } from "../stream/stream-fn.js";
import { policyContext, type RunState } from "./run-state.js";

const CONTINUE = { kind: "continue" } as const;
const STOP = { kind: "stop" } as const;

/**
 * Runs the pre-turn policies in order on the request about to be sent: the first stop wins; injections are collected.
 * Contract: a throwing policy propagates (the run ends with its error).
 */
export async function runPreTurnPolicies(state: RunState, request: StreamContext): Promise<PreTurnDecision> {
  const policies = state.config.preTurnPolicies;
  if (!policies || policies.length === 0) return CONTINUE;
  const injected: AgentMessage[] = [];
  const ctx = { ...policyContext(state), request };
  for (const policy of policies) {
    const decision = await policy(ctx);
    if (!decision || decision.kind === "continue") continue;
    if (decision.kind === "stop") return decision;
    injected.push(...decision.messages);
  }
  return injected.length > 0 ? { kind: "inject", messages: injected } : CONTINUE;
}

/** Runs the post-turn policies in order: the first stop wins; injections are collected. */
export async function runPostTurnPolicies(
  state: RunState,
  message: AssistantMessage,
  toolResults: ToolResultMessage[],
): Promise<PostTurnDecision> {
  const policies = state.config.postTurnPolicies;
  if (!policies || policies.length === 0) return CONTINUE;
  const injected: AgentMessage[] = [];
  for (const policy of policies) {
    const decision = await policy({ ...policyContext(state), message, toolResults });
    if (!decision || decision.kind === "continue") continue;
    if (decision.kind === "stop") return decision;
    injected.push(...decision.messages);
  }
  return injected.length > 0 ? { kind: "inject", messages: injected } : CONTINUE;
}

/** Runs the post-loop policies: the first `continue` with messages wins; otherwise stop. */
export async function runPostLoopPolicies(state: RunState): Promise<PostLoopDecision> {
  const policies = state.config.postLoopPolicies;
  if (!policies || policies.length === 0) return STOP;
  for (const policy of policies) {
    const decision = await policy(policyContext(state));
    if (decision?.kind === "continue" && decision.messages.length > 0) return decision;
  }
  return STOP;
}
