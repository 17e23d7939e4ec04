import { COMPLETE_FOCUS_TOOL, START_FOCUS_TOOL } from "@chorus/core";

/** Named groups of tools that policies allow or deny together. */
export type ToolGroup = "fs-read" | "fs-write" | "exec" | "web" | "sessions" | "admin" | "info" | "mcp" | "memory";

/** Which tools belong to which group. Apps extend it (e.g. the gateway's admin tools). */
export type ToolGroupMap = Partial<Record<ToolGroup, readonly string[]>>;

/**
 * The built-in membership. `info` holds harmless facts (current_time), the Focus strategy's `start_focus` /
 * `complete_focus` and the session todo list's `todo_write` (they change only the calling session's own context, and
 * bound what they are given); `mcp` holds every tool named `mcp__*` implicitly; `admin` is empty until the host
 * registers its tools; `memory` holds the long-term memory tools (`@chorus/memory`), whose scope the host fixes per
 * caller.
 */
export const DEFAULT_TOOL_GROUPS: Readonly<Record<ToolGroup, readonly string[]>> = {
  // send_file (the gateway's media extension) reads a workspace file out to the chat: gated as a read.
  "fs-read": ["read_file", "list_dir", "glob", "grep", "send_file"],
  "fs-write": ["write_file", "edit_file"],
  exec: ["exec"],
  web: ["web_fetch"],
  sessions: ["spawn_agent", "list_subagents", "cancel_subagent", "sessions_list", "sessions_history", "sessions_send"],
  admin: [],
  // todo_write: @chorus/extension-context's session todo list (named here: this package sits below it).
  info: ["current_time", START_FOCUS_TOOL, COMPLETE_FOCUS_TOOL, "todo_write"],
  mcp: [],
  memory: ["remember", "forget", "recall"],
};

/**
 * Merges extra memberships into the defaults.
 * Contract: returns a new map; listed names are added to (never removed from) each group.
 */
export function mergeToolGroups(extra: ToolGroupMap = {}): Record<ToolGroup, readonly string[]> {
  const merged = { ...DEFAULT_TOOL_GROUPS };
  for (const [group, names] of Object.entries(extra) as [ToolGroup, readonly string[]][]) {
    merged[group] = [...new Set([...(merged[group] ?? []), ...names])];
  }
  return merged;
}

/** The groups a tool belongs to (MCP tools are always in `mcp`). */
export function groupsOfTool(name: string, groups: Readonly<Record<ToolGroup, readonly string[]>>): ToolGroup[] {
  const found = (Object.keys(groups) as ToolGroup[]).filter((g) => groups[g].includes(name));
  if (name.startsWith("mcp__") && !found.includes("mcp")) found.push("mcp");
  return found;
}
