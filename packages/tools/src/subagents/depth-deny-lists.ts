import type { PreDispatchPolicy } from "@chorus/core";
import { mergeToolGroups, type ToolGroupMap } from "../policy/tool-groups.js";

/**
 * Denied to every sub-agent (OpenClaw's list, seed 001 §4): admin/gateway tools, messaging other
 * sessions, schedulers and memory tools (context goes in the task instead).
 */
export const SUBAGENT_DENY_ALWAYS: readonly string[] = [
  "gateway",
  "agents_list",
  "session_status",
  "sessions_send",
  "cron",
  "schedule",
  "schedule_task",
  "memory_search",
  "memory_get",
  "memory_save",
];

/** Also denied at the leaf (depth == maxSpawnDepth): spawning and reading other sessions. */
export const SUBAGENT_DENY_LEAF: readonly string[] = ["spawn_agent", "sessions_list", "sessions_history"];

/** Name prefixes denied to every sub-agent (schedulers and memory tools of any flavour). */
const DENY_ALWAYS_PREFIXES = ["cron_", "schedule_", "memory_"];

export interface DepthDenyOptions {
  maxSpawnDepth: number;
  /** Extra group members; everything in group `admin` is denied to sub-agents. */
  groups?: ToolGroupMap;
  /** More names denied to every sub-agent. */
  extraDenyAlways?: readonly string[];
}

/**
 * Why `toolName` is denied at `depth`, or undefined when it is allowed.
 * Contract: depth 0 (a top-level agent) is never restricted here.
 */
export function depthDenyReason(toolName: string, depth: number, options: DepthDenyOptions): string | undefined {
  if (depth <= 0) return undefined;
  const admin = mergeToolGroups(options.groups).admin;
  const always =
    SUBAGENT_DENY_ALWAYS.includes(toolName) ||
    (options.extraDenyAlways ?? []).includes(toolName) ||
    admin.includes(toolName) ||
    DENY_ALWAYS_PREFIXES.some((p) => toolName.startsWith(p));
  if (always) {
    return `Tool "${toolName}" is not available to sub-agents (depth ${depth}); put what you need in your final answer instead.`;
  }
  if (depth >= options.maxSpawnDepth && SUBAGENT_DENY_LEAF.includes(toolName)) {
    return `Tool "${toolName}" is not available at depth ${depth} of ${options.maxSpawnDepth}: this sub-agent may not spawn or inspect other sessions. Do the task yourself.`;
  }
  return undefined;
}

/**
 * A preDispatch policy enforcing the depth deny-lists on every call, whatever tools the model
 * was shown (a model that invents a denied call is refused).
 * Contract: never throws; answers deny with a reason, or undefined (no opinion).
 */
export function createDepthDenyPolicy(options: DepthDenyOptions): PreDispatchPolicy {
  return (request) => {
    const reason = depthDenyReason(request.toolCall.name, request.run.depth, options);
    return reason ? { kind: "deny", reason } : undefined;
  };
}
