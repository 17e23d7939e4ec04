import type { AnyAgentTool } from "@chorus/core";
import { type DepthDenyOptions, depthDenyReason } from "./depth-deny-lists.js";

/**
 * The tools a child at `depth` is shown, and the names it is told it may not use.
 * Contract: the spawn tools are offered only below the leaf; anything on a deny-list for that
 * depth is removed (the depth policy still refuses it if the model invents the call).
 */
export function childToolSet(
  profileTools: readonly AnyAgentTool[],
  spawnTools: readonly AnyAgentTool[],
  depth: number,
  options: DepthDenyOptions,
): { allowed: AnyAgentTool[]; denied: string[] } {
  const isLeaf = depth >= options.maxSpawnDepth;
  const offered = [...profileTools, ...(isLeaf ? [] : spawnTools)].filter(
    (tool, i, all) => all.findIndex((t) => t.name === tool.name) === i,
  );
  const allowed = offered.filter((t) => !depthDenyReason(t.name, depth, options));
  const denied = offered.map((t) => t.name).filter((n) => depthDenyReason(n, depth, options));
  if (isLeaf && !denied.includes("spawn_agent")) denied.push("spawn_agent");
  return { allowed, denied };
}
