import type { AnyAgentTool, Model, PreDispatchPolicy, StreamFn, ToolRunInfo, Usage } from "@chorus/core";

/** A kind of sub-agent the model may spawn by name. */
export interface SubagentProfile {
  /** Shown to the model in spawn_agent's description. */
  description: string;
  /** Appended to the generated sub-agent prompt. */
  systemPrompt?: string;
  /** Its tools (the spawn tools are added automatically below the leaf). Deny-lists still apply. */
  tools: AnyAgentTool[];
  /** Model and StreamFn for this profile; default: the Subagents options'. */
  model?: Model;
  streamFn?: StreamFn;
  maxTurns?: number;
}

/** How a child run ended. */
export type SubagentStatus = "running" | "completed" | "failed" | "aborted" | "timed_out";

/** The record of one child run. Depth and lineage are fixed at spawn and never change. */
export interface SubagentRunRecord {
  runId: string;
  parentRunId: string;
  sessionId: string;
  depth: number;
  agent: string;
  label?: string;
  task: string;
  mode: "wait" | "background";
  status: SubagentStatus;
  startedAt: number;
  endedAt?: number;
  /** The child's usage, its own descendants included. */
  usage: Usage;
  /** Final text (completed) or the error (otherwise). */
  result?: string;
  /** Background runs: whether `deliver` succeeded. */
  delivered?: boolean;
  deliveryError?: string;
}

/** What a background child hands back through `deliver`. */
export interface SubagentResult {
  runId: string;
  parentRunId: string;
  sessionId: string;
  depth: number;
  agent: string;
  label?: string;
  status: Exclude<SubagentStatus, "running">;
  text: string;
  usage: Usage;
}

/** Sub-agent lifecycle events, also streamed on the parent's tool call as partial results. */
export type SubagentEvent =
  | {
      type: "subagent_spawned";
      runId: string;
      parentRunId: string;
      depth: number;
      agent: string;
      label?: string;
      mode: "wait" | "background";
      sessionId: string;
    }
  | {
      type: "subagent_completed";
      runId: string;
      parentRunId: string;
      depth: number;
      agent: string;
      label?: string;
      status: Exclude<SubagentStatus, "running">;
      usage: Usage;
      /** The child's cost in US dollars (usage.cost.total). */
      cost: number;
    };

/** One child run to execute. */
export interface ChildRunRequest {
  agent: string;
  profile: SubagentProfile;
  run: ToolRunInfo;
  systemPrompt: string;
  task: string;
  /** The spawn's label, when it gave one. */
  label?: string;
  /** The time limit the child runs under (the spawn's, or the default), in seconds; the runner may keep it. */
  timeoutSeconds?: number;
  /** How it was spawned: `background` when its parent does not wait for it (its result comes as a message later). */
  mode?: "wait" | "background";
  /** The child's visible tools (deny-lists already removed). */
  tools: AnyAgentTool[];
  /** Must be installed on the child's loop: the depth deny-lists and the caller's policies. */
  preDispatchPolicies: PreDispatchPolicy[];
  signal: AbortSignal;
}

/** How a child run ended, from the runner's point of view. */
export interface ChildRunOutcome {
  status: "completed" | "failed" | "aborted";
  text: string;
  usage: Usage;
}

/** Runs a child agent to completion. Contract: never rejects; failures are a "failed" outcome. */
export type ChildRunner = (request: ChildRunRequest) => Promise<ChildRunOutcome>;
