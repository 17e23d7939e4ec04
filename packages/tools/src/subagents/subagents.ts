import {
  type AgentEvent,
  type AnyAgentTool,
  addUsage,
  emptyUsage,
  type Model,
  type PreDispatchPolicy,
  type StreamFn,
  type ToolCallContext,
  type ToolOutput,
} from "@chorus/core";
import type { ToolGroupMap } from "../policy/tool-groups.js";
import { errorOutput, textOutput } from "../tool-results/text-results.js";
import { childSessionId, newChildRunId } from "./child-identity.js";
import { childSystemPrompt } from "./child-system-prompt.js";
import { childToolSet } from "./child-tool-set.js";
import { processSubagentSlots, type SubagentSlots } from "./concurrency-slots.js";
import { createDepthDenyPolicy } from "./depth-deny-lists.js";
import { ResultDelivery } from "./result-delivery.js";
import { resolveSubagentLimits, type SubagentLimits } from "./subagent-limits.js";
import { SubagentRegistry } from "./subagent-registry.js";
import { cancelSubagentTool, listSubagentsTool, spawnAgentTool } from "./subagent-tools.js";
import type {
  ChildRunner,
  SubagentEvent,
  SubagentProfile,
  SubagentResult,
  SubagentRunRecord,
  SubagentStatus,
} from "./subagent-types.js";

export interface SubagentsOptions {
  /** The kinds of sub-agent the model may spawn, by name. */
  agents: Record<string, SubagentProfile>;
  /** Runs a child to completion (e.g. `coreChildRunner`). */
  runChild: ChildRunner;
  limits?: Partial<SubagentLimits>;
  /** Receives background results; make it durable (the gateway does). A throw is recorded, and `redeliver` retries. */
  deliver?: (parentRunId: string, result: SubagentResult) => void | Promise<void>;
  /** Every spawned/completed event, background ones included. */
  onEvent?: (event: SubagentEvent) => void;
  /** Policies every child's loop must also apply (e.g. the caller's trust-tier gate). */
  childPolicies?: PreDispatchPolicy[];
  /** Extra group members (admin tools are denied to every sub-agent). */
  groups?: ToolGroupMap;
  /** Process-wide by default; pass your own to isolate (tests). */
  slots?: SubagentSlots;
  /** Default model and StreamFn for profiles that give none (used by the runner). */
  model?: Model;
  streamFn?: StreamFn;
}

export interface SpawnArgs {
  agent: string;
  task: string;
  mode: "wait" | "background";
  label?: string | undefined;
  timeoutSeconds?: number | undefined;
}

/** Sub-agents for one host: the tools, the dispatch policy and control over running children. */
export interface Subagents {
  /** spawn_agent, list_subagents, cancel_subagent: give them to the top-level agent. */
  readonly tools: AnyAgentTool[];
  /** Install on the top-level agent too: it enforces the depth deny-lists on every call. */
  readonly depthPolicy: PreDispatchPolicy;
  readonly limits: SubagentLimits;
  /** Starts a child on behalf of the call in `ctx` (what spawn_agent does). */
  spawn(args: SpawnArgs, ctx: ToolCallContext): Promise<ToolOutput>;
  /** Records of a run's own children. */
  childrenOf(parentRunId: string): SubagentRunRecord[];
  get(runId: string): SubagentRunRecord | undefined;
  /** Aborts a run's running children and all their descendants (the host's /stop). */
  cancelChildren(parentRunId: string, reason?: string): string[];
  /** Retries `deliver` for background results that failed to deliver. Contract: returns how many succeeded. */
  redeliver(): Promise<number>;
  /**
   * Cascades an Agent's abort to sub-agents: when one of its runs ends "aborted", the running
   * children of every run of that Agent (background ones included) and their descendants are
   * cancelled. Contract: returns the unsubscribe function.
   */
  linkAgent(agent: { subscribe(listener: (event: AgentEvent) => void): () => void }): () => void;
}

/**
 * Creates the sub-agent machinery (seed 001 §4, OpenClaw's depth rules without its bugs).
 * Contract: a spawn past any limit is an error result the model sees, never an exception;
 * depth and lineage are fixed at spawn; aborting a parent's call aborts the child and all its
 * descendants; a child's usage and cost are added to the parent's run through ctx.addUsage.
 */
export function createSubagents(options: SubagentsOptions): Subagents {
  const limits = resolveSubagentLimits(options.limits);
  const registry = new SubagentRegistry();
  const slots = options.slots ?? processSubagentSlots;
  const denyOptions = { maxSpawnDepth: limits.maxSpawnDepth, ...(options.groups ? { groups: options.groups } : {}) };
  const depthPolicy = createDepthDenyPolicy(denyOptions);
  const delivery = new ResultDelivery(options.deliver);
  let tools: AnyAgentTool[] = [];

  const emit = (event: SubagentEvent, ctx: ToolCallContext | undefined) => {
    try {
      options.onEvent?.(event);
    } catch {
      // a faulty listener must not break a run
    }
    ctx?.onUpdate({ content: [{ type: "text", text: describeEvent(event) }], details: event });
  };

  const spawn = async (args: SpawnArgs, ctx: ToolCallContext): Promise<ToolOutput> => {
    const parentRunId = ctx.run.runId;
    const depth = ctx.run.depth + 1;
    if (depth > limits.maxSpawnDepth) {
      return errorOutput(
        `spawn_agent refused: you are at depth ${ctx.run.depth} and the deepest allowed sub-agent is depth ${limits.maxSpawnDepth}. Do the task yourself.`,
      );
    }
    const profile = options.agents[args.agent];
    if (!profile) {
      return errorOutput(
        `spawn_agent refused: unknown agent "${args.agent}". Available: ${Object.keys(options.agents).join(", ")}.`,
      );
    }
    if (registry.spawnedBy(parentRunId) >= limits.maxChildrenPerRun) {
      return errorOutput(
        `spawn_agent refused: this run already spawned ${limits.maxChildrenPerRun} sub-agents, the most allowed.`,
      );
    }
    if (!slots.tryAcquire(limits.maxConcurrentSubagents)) {
      return errorOutput(
        `spawn_agent refused: ${limits.maxConcurrentSubagents} sub-agents are already running, the most allowed at once. Wait for one to finish or do the task yourself.`,
      );
    }

    const runId = newChildRunId();
    const sessionId = childSessionId(args.agent, depth, runId, ctx.run.sessionId ?? parentRunId);
    const controller = new AbortController();
    const timeoutSeconds = Math.min(args.timeoutSeconds ?? limits.defaultTimeoutSeconds, limits.maxTimeoutSeconds);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      registry.cancelTree(runId, `timed out after ${timeoutSeconds} s`);
    }, timeoutSeconds * 1000);
    const record: SubagentRunRecord = {
      runId,
      parentRunId,
      sessionId,
      depth,
      agent: args.agent,
      ...(args.label ? { label: args.label } : {}),
      task: args.task,
      mode: args.mode,
      status: "running",
      startedAt: Date.now(),
      usage: emptyUsage(),
    };
    registry.add(record, controller);
    // Wait mode: the parent's call signal is the parent; aborting it cascades down the tree.
    const onParentAbort = () => registry.cancelTree(runId, "the parent was aborted");
    if (args.mode === "wait") {
      if (ctx.signal.aborted) onParentAbort();
      ctx.signal.addEventListener("abort", onParentAbort, { once: true });
    }
    const label = args.label ? { label: args.label } : {};
    emit(
      { type: "subagent_spawned", runId, parentRunId, depth, agent: args.agent, ...label, mode: args.mode, sessionId },
      ctx,
    );

    const { allowed, denied } = childToolSet(profile.tools, tools, depth, denyOptions);

    const finished = (async (): Promise<SubagentResult> => {
      let status: Exclude<SubagentStatus, "running">;
      let text: string;
      try {
        const outcome = await options.runChild({
          agent: args.agent,
          profile,
          run: { runId, depth, sessionId, meta: { ...ctx.run.meta, parentRunId, subagent: args.agent } },
          systemPrompt: childSystemPrompt({
            depth,
            maxSpawnDepth: limits.maxSpawnDepth,
            deniedTools: denied,
            profilePrompt: profile.systemPrompt,
          }),
          task: args.task,
          ...label,
          timeoutSeconds,
          mode: args.mode,
          tools: allowed,
          preDispatchPolicies: [depthPolicy, ...(options.childPolicies ?? [])],
          signal: controller.signal,
        });
        addUsage(record.usage, outcome.usage);
        status = timedOut ? "timed_out" : controller.signal.aborted ? "aborted" : outcome.status;
        text = outcome.text;
      } catch (error) {
        status = timedOut ? "timed_out" : "failed";
        text = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onParentAbort);
        slots.release();
      }
      // A child's work ends with its answer: its own still-running children end too.
      registry.cancelChildren(runId, "their parent sub-agent finished");
      record.status = status;
      record.endedAt = Date.now();
      record.result = text;
      // Wait mode rolls the cost into the parent's run now; a background child may end after the
      // parent's run did, so its usage travels in the delivered result (host: agent.addUsage).
      if (args.mode === "wait") ctx.addUsage(record.usage);
      emit(
        {
          type: "subagent_completed",
          runId,
          parentRunId,
          depth,
          agent: args.agent,
          ...label,
          status,
          usage: record.usage,
          cost: record.usage.cost.total,
        },
        args.mode === "wait" ? ctx : undefined,
      );
      return { runId, parentRunId, sessionId, depth, agent: args.agent, ...label, status, text, usage: record.usage };
    })();

    if (args.mode === "background") {
      void finished.then((result) => delivery.deliver(record, result));
      return textOutput(JSON.stringify({ status: "accepted", runId }), { runId, sessionId, depth });
    }
    const result = await finished;
    const details = { runId, sessionId, depth, status: result.status, usage: result.usage };
    if (result.status === "completed") return textOutput(result.text, details);
    const why = result.status === "timed_out" ? `timed out after ${timeoutSeconds} s` : result.status;
    return {
      content: [{ type: "text", text: `Sub-agent ${args.agent} ${why}: ${result.text || "(no answer)"}` }],
      details,
      isError: true,
    };
  };

  const system: Subagents = {
    get tools() {
      return tools;
    },
    depthPolicy,
    limits,
    spawn,
    childrenOf: (parentRunId) => registry.childrenOf(parentRunId),
    get: (runId) => registry.get(runId),
    cancelChildren: (parentRunId, reason = "cancelled by the host") => registry.cancelChildren(parentRunId, reason),
    linkAgent: (agent) => {
      const runs = new Set<string>();
      return agent.subscribe((event) => {
        if (event.type === "agent_start") runs.add(event.runId);
        if (event.type === "agent_end" && event.reason === "aborted") {
          for (const runId of runs) registry.cancelChildren(runId, "the parent agent was aborted");
        }
      });
    },
    redeliver: () => delivery.redeliver(),
  };
  tools = [
    spawnAgentTool(system, options.agents, limits),
    listSubagentsTool(system),
    cancelSubagentTool(system, registry),
  ];
  return system;
}

function describeEvent(event: SubagentEvent): string {
  return event.type === "subagent_spawned"
    ? `sub-agent ${event.agent} started (${event.runId}, depth ${event.depth}, ${event.mode})`
    : `sub-agent ${event.agent} ${event.status} (${event.runId})`;
}
