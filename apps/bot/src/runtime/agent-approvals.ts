import type { PreDispatchPolicy, ToolRunInfo } from "@chorus/core";
import { parseSessionKey, type RootSessionKey, rootKeyOf } from "@chorus/gateway";
import { createApprovalPolicy, groupsOfTool, mergeToolGroups, parseTrustTier, type ToolGroupMap } from "@chorus/tools";
import type { ApprovalMode, BotAgent } from "../config/bot-config-schema.js";

/**
 * Tools that change things: they ask by default, except for the owner in their own DM. MCP tools count: what a server
 * does is not known to the bot.
 */
const CHANGING_GROUPS = ["fs-write", "exec", "mcp"] as const;

/** How cautious each mode is: when several groups of a tool have entries, the most cautious wins. */
const CAUTION: Record<ApprovalMode, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * What a tool needs under an agent's `approvals`: its own entry, else the most cautious entry of its groups (a map
 * made once by `mergeToolGroups`), else "default". Contract: pure.
 */
export function approvalModeOf(
  approvals: Readonly<Record<string, ApprovalMode>>,
  toolName: string,
  groups: ReturnType<typeof mergeToolGroups> = mergeToolGroups(),
): ApprovalMode | "default" {
  const own = approvals[toolName];
  if (own !== undefined) return own;
  const modes = groupsOfTool(toolName, groups)
    .map((group) => approvals[`group:${group}`])
    .filter((mode): mode is ApprovalMode => mode !== undefined);
  if (modes.length === 0) return "default";
  return modes.reduce((a, b) => (CAUTION[b] > CAUTION[a] ? b : a));
}

/**
 * Whether a run was started by the owner in their own DM: the turn's tier is owner (the gateway lowers it to the
 * lowest tier among the turn's messages) and its root session is a DM. A sub-agent's run counts as its root's.
 * Contract: false for a run without a parsable session key (fail closed: ask).
 */
export function isOwnersOwnDm(run: ToolRunInfo): boolean {
  if (parseTrustTier(run.meta?.trustTier) !== "owner" || run.sessionId === undefined) return false;
  const parsed = parseSessionKey(run.sessionId);
  if (!parsed.ok) return false;
  const root: RootSessionKey = rootKeyOf(parsed.key);
  return root.kind === "dm";
}

/**
 * The approval policy of one agent, for `AgentRuntimeSetup.policies`: `ask` entries always ask, `allow` never,
 * `deny` refuses the call; tools without an entry ask when they change things (group:fs-write, group:exec, group:mcp) unless
 * the owner started the turn in their own DM. A question goes to the gateway's approval desk (buttons where the
 * platform has them, /approve and /deny otherwise).
 * Contract: never throws.
 * @example setup.policies = [agentApprovalPolicy({ ...agent, approvals: { exec: "ask" } })]
 */
export function agentApprovalPolicy(
  agent: Pick<BotAgent, "approvals">,
  options: { groups?: ToolGroupMap; timeoutMs?: number } = {},
): PreDispatchPolicy {
  const approvals = agent.approvals ?? {};
  const groups = mergeToolGroups(options.groups);
  const modeOf = (name: string) => approvalModeOf(approvals, name, groups);
  const ask = createApprovalPolicy({
    require: (request) => {
      const mode = modeOf(request.toolCall.name);
      if (mode !== "default") return mode === "ask";
      const changes = groupsOfTool(request.toolCall.name, groups).some((group) =>
        (CHANGING_GROUPS as readonly string[]).includes(group),
      );
      return changes && !isOwnersOwnDm(request.run);
    },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return (request) =>
    modeOf(request.toolCall.name) === "deny"
      ? { kind: "deny", reason: `Tool "${request.toolCall.name}" is switched off for this agent.` }
      : ask(request);
}
