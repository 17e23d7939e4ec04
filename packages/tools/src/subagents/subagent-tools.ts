import { defineTool } from "@chorus/core";
import { z } from "zod";
import { errorOutput, textOutput } from "../tool-results/text-results.js";
import type { SubagentLimits } from "./subagent-limits.js";
import type { SubagentRegistry } from "./subagent-registry.js";
import type { SubagentProfile } from "./subagent-types.js";
import type { Subagents } from "./subagents.js";

/** spawn_agent: start a sub-agent and wait for its answer, or run it in the background. */
export function spawnAgentTool(system: Subagents, agents: Record<string, SubagentProfile>, limits: SubagentLimits) {
  const names = Object.keys(agents);
  const catalogue = names.map((n) => `- ${n}: ${agents[n]?.description ?? ""}`).join("\n");
  return defineTool({
    name: "spawn_agent",
    description:
      "Start a sub-agent with its own fresh context to do one self-contained task. Put everything it needs in `task`; " +
      "it cannot see this conversation. mode 'wait' returns its final answer as this tool's result; mode 'background' " +
      `returns {status:'accepted', runId} at once and the answer arrives later. At most ${limits.maxChildrenPerRun} per run.\n` +
      `Agents:\n${catalogue}`,
    parameters: z.object({
      agent: z.string().describe(`One of: ${names.join(", ")}`),
      task: z.string().min(1).describe("The complete task, with all context the sub-agent needs"),
      mode: z.enum(["wait", "background"]).default("wait"),
      label: z.string().max(80).optional().describe("Short name for this run in listings"),
      timeoutSeconds: z.number().positive().max(limits.maxTimeoutSeconds).optional(),
    }),
    category: "exec",
    concurrencySafe: true,
    // The child has its own timeout; the parent's category timeout must not cut it shorter.
    timeoutMs: limits.maxTimeoutSeconds * 1000 + 5_000,
    execute: (args, ctx) => system.spawn(args, ctx),
  });
}

/** list_subagents: this run's own children. */
export function listSubagentsTool(system: Subagents) {
  return defineTool({
    name: "list_subagents",
    description: "List the sub-agents this run started: run id, agent, label, status, depth and cost.",
    parameters: z.object({}),
    category: "info",
    concurrencySafe: true,
    execute: async (_args, ctx) => {
      const children = system.childrenOf(ctx.run.runId);
      if (children.length === 0) return textOutput("No sub-agents started by this run.");
      const rows = children.map(
        (c) =>
          `${c.runId}  ${c.agent}${c.label ? ` "${c.label}"` : ""}  ${c.status}  depth ${c.depth}  ${c.mode}  $${c.usage.cost.total.toFixed(4)}`,
      );
      return textOutput(
        rows.join("\n"),
        children.map(({ runId, agent, status, depth }) => ({ runId, agent, status, depth })),
      );
    },
  });
}

/** cancel_subagent: abort one of this run's own children (and its descendants). */
export function cancelSubagentTool(system: Subagents, registry: SubagentRegistry) {
  return defineTool({
    name: "cancel_subagent",
    description:
      "Cancel a running sub-agent this run started, and everything it started. Give its run id from list_subagents.",
    parameters: z.object({ runId: z.string().min(1) }),
    category: "info",
    concurrencySafe: true,
    execute: async (args, ctx) => {
      const record = system.get(args.runId);
      if (!record || record.parentRunId !== ctx.run.runId) {
        return errorOutput(`No sub-agent ${args.runId} was started by this run.`);
      }
      if (record.status !== "running") return textOutput(`Sub-agent ${args.runId} already ended (${record.status}).`);
      const cancelled = registry.cancelTree(args.runId, "cancelled by its parent");
      return textOutput(
        `Cancelled ${cancelled.length} run${cancelled.length === 1 ? "" : "s"}: ${cancelled.join(", ")}.`,
      );
    },
  });
}
