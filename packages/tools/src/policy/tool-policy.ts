import { DEFAULT_TOOL_GROUPS, groupsOfTool, type ToolGroup } from "./tool-groups.js";

/**
 * Allow/deny rules. An entry is a tool name (`"exec"`), a group (`"group:fs-write"`) or `"*"`.
 * Deny wins over allow; when `allow` is given, anything it does not match is denied.
 */
export interface ToolPolicy {
  allow?: readonly string[];
  deny?: readonly string[];
}

export type PolicyVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Judges one tool name against a policy.
 * Contract: pure; the reason names the rule that denied the tool so the model can adapt.
 */
export function evaluateToolPolicy(
  policy: ToolPolicy,
  toolName: string,
  groups: Readonly<Record<ToolGroup, readonly string[]>> = DEFAULT_TOOL_GROUPS,
): PolicyVerdict {
  const memberOf = groupsOfTool(toolName, groups);
  const matches = (entry: string) =>
    entry === "*" ||
    entry === toolName ||
    (entry.startsWith("group:") && memberOf.includes(entry.slice(6) as ToolGroup));
  const denyRule = policy.deny?.find(matches);
  if (denyRule) return { allowed: false, reason: `Tool "${toolName}" is not permitted here (denied by ${denyRule}).` };
  if (policy.allow && !policy.allow.some(matches)) {
    return { allowed: false, reason: `Tool "${toolName}" is not permitted here (not in the allowed tools).` };
  }
  return { allowed: true };
}
