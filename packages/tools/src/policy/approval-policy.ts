import type { PreDispatchPolicy } from "@chorus/core";
import type { DispatchRequest } from "./dispatch-request.js";
import { mergeToolGroups, type ToolGroupMap } from "./tool-groups.js";
import { evaluateToolPolicy } from "./tool-policy.js";

export interface ApprovalPolicyOptions {
  /**
   * Which calls need a human's approval: tool names / `group:<g>` entries, or a predicate.
   * Default: `["group:fs-write", "group:exec"]`.
   */
  require?: readonly string[] | ((request: DispatchRequest) => boolean);
  /** The question shown to the approver. Default names the tool and its arguments. */
  reason?: (request: DispatchRequest) => string;
  /** How long to wait before the call is denied. Default: core's default. */
  timeoutMs?: number;
  groups?: ToolGroupMap;
}

/**
 * A preDispatch policy that answers "ask" for calls needing approval and allow otherwise; the
 * Agent then emits `approval_required` and waits for approve(id) / deny(id) or the timeout.
 * Contract: never throws; never denies by itself.
 */
export function createApprovalPolicy(options: ApprovalPolicyOptions = {}): PreDispatchPolicy {
  const groups = mergeToolGroups(options.groups);
  const rule = options.require ?? ["group:fs-write", "group:exec"];
  const needs =
    typeof rule === "function"
      ? rule
      : (r: DispatchRequest) => !evaluateToolPolicy({ deny: rule }, r.toolCall.name, groups).allowed;
  const reason = options.reason ?? ((r: DispatchRequest) => `Allow ${r.toolCall.name} with ${summariseArgs(r.args)}?`);
  return (request) => {
    if (!needs(request)) return { kind: "allow" };
    return options.timeoutMs === undefined
      ? { kind: "ask", reason: reason(request) }
      : { kind: "ask", reason: reason(request), timeoutMs: options.timeoutMs };
  };
}

function summariseArgs(args: unknown): string {
  const json = JSON.stringify(args);
  return json.length > 300 ? `${json.slice(0, 300)}…` : json;
}
