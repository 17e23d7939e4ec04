import type { ToolCall } from "../messages/content.js";
import type { AnyAgentTool } from "../tools/tool-types.js";
import type { ApprovalDecision, ApprovalRequest, PolicyContext, PreDispatchPolicy } from "./policy-types.js";

/** Default time a human has to answer an `ask`: five minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/** What the pre-dispatch policies decided for one call, after any approval. */
export type DispatchVerdict =
  | {
      kind: "allow";
      args: unknown;
      rewritten: boolean /** A person approved the call through an `ask`. */;
      approved: boolean;
    }
  | { kind: "deny"; reason: string };

/** How the executor reaches the app for approvals and events. */
export interface DispatchDeps {
  policies: PreDispatchPolicy[];
  context: PolicyContext;
  awaitApproval: ((request: ApprovalRequest) => Promise<ApprovalDecision>) | undefined;
  announce: (request: ApprovalRequest) => void;
  approvalId: string;
}

/**
 * Runs the pre-dispatch policies in order: the first deny wins, rewrites chain, an `ask` waits for
 * the app's answer (a timeout or abort denies). Contract: a throwing policy denies the call with its message.
 */
export async function decideDispatch(
  deps: DispatchDeps,
  toolCall: ToolCall,
  tool: AnyAgentTool,
  args: unknown,
  signal: AbortSignal,
): Promise<DispatchVerdict> {
  let current = args;
  let rewritten = false;
  let approved = false;
  for (const policy of deps.policies) {
    let decision: Awaited<ReturnType<PreDispatchPolicy>>;
    try {
      decision = await policy({ ...deps.context, signal, toolCall, tool, args: current });
    } catch (error) {
      return { kind: "deny", reason: `Tool call blocked: a policy failed: ${(error as Error).message}` };
    }
    if (!decision || decision.kind === "allow") continue;
    if (decision.kind === "deny") return { kind: "deny", reason: decision.reason };
    if (decision.kind === "rewrite") {
      current = decision.args;
      rewritten = true;
      continue;
    }
    const answer = await askForApproval(deps, toolCall, decision.reason, decision.timeoutMs, signal);
    if (!answer.approved) {
      return { kind: "deny", reason: `Tool call denied: ${answer.reason ?? "not approved"}` };
    }
    approved = true;
  }
  return { kind: "allow", args: current, rewritten, approved };
}

function askForApproval(
  deps: DispatchDeps,
  toolCall: ToolCall,
  reason: string,
  timeoutMs: number | undefined,
  signal: AbortSignal,
): Promise<ApprovalDecision> {
  const ms = timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const awaitApproval = deps.awaitApproval;
  if (!awaitApproval) {
    return Promise.resolve({ approved: false, reason: `approval required (${reason}) but no approver is configured` });
  }
  if (signal.aborted) return Promise.resolve({ approved: false, reason: "the run was aborted" });
  // The request's own signal ends when the question does (answer, timeout or abort), so approvers can clean up.
  const question = new AbortController();
  const request: ApprovalRequest = {
    approvalId: deps.approvalId,
    toolCall,
    reason,
    timeoutMs: ms,
    signal: question.signal,
  };
  return new Promise<ApprovalDecision>((resolve) => {
    let settled = false;
    const settle = (decision: ApprovalDecision): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      question.abort();
      resolve(decision);
    };
    const onAbort = (): void => settle({ approved: false, reason: "the run was aborted while waiting for approval" });
    const timer = setTimeout(
      () => settle({ approved: false, reason: `no approval within ${Math.round(ms / 1000)} s` }),
      ms,
    );
    signal.addEventListener("abort", onAbort, { once: true });
    // Register before announcing, so a listener may answer synchronously from the event.
    const answer = awaitApproval(request);
    deps.announce(request);
    answer.then(settle, (error: unknown) =>
      settle({ approved: false, reason: `approval failed: ${(error as Error).message}` }),
    );
  });
}
