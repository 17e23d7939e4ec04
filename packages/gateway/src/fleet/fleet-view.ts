import type { ClusterInstance, RunRecord, RunStatus, SessionRecord } from "@chorus/store";
import { describeMatch } from "../config/binding-specificity.js";
import type { AgentConfig, Binding } from "../config/gateway-config-schema.js";
import type { RunPlacement } from "./cluster-placement.js";
import type { RunTracker } from "./run-tracker.js";

/** One run in the fleet tree. */
export interface FleetRunNode {
  readonly runId: string;
  readonly agentId: string;
  readonly sessionKey: string;
  readonly depth: number;
  readonly status: RunStatus;
  readonly ageMs: number;
  readonly tokens: number;
  readonly cost: number;
  readonly channel: string;
  readonly chatId: string;
  /** The cluster instance running it and that instance's heartbeat age (a cluster only). */
  readonly instance?: string;
  readonly beatAgeMs?: number;
  readonly children: FleetRunNode[];
}

/** One configured agent in the fleet. */
export interface FleetAgent {
  readonly id: string;
  readonly model: string;
  readonly bindings: readonly string[];
  readonly sessions: number;
  readonly activeSessions: number;
  readonly runningRuns: number;
}

/** The fleet as `/agents` shows it. */
export interface FleetView {
  readonly agents: readonly FleetAgent[];
  /** Root runs (and orphans whose parent is no longer running), each with its sub-agent tree. */
  readonly runs: readonly FleetRunNode[];
  /** The instances of a cluster (undefined outside one). */
  readonly instances?: readonly ClusterInstance[];
  /** What every agent spent today (UTC), from the spend ledger: finished runs too, sub-agents and side calls included. */
  readonly today?: { readonly tokens: number; readonly cost: number };
  readonly totals: {
    readonly sessions: number;
    readonly activeSessions: number;
    readonly runningRuns: number;
    readonly tokens: number;
    readonly cost: number;
  };
}

/** What the fleet is built from. */
export interface FleetInput {
  readonly agents: readonly AgentConfig[];
  readonly bindings: readonly Binding[];
  /** Chat sessions (sub-agent sessions are counted with their runs, not here). */
  readonly sessions: readonly SessionRecord[];
  /** Running runs from the store (the fleet registry). */
  readonly runs: readonly RunRecord[];
  /** Sessions of those runs, by key, for channel and chat. */
  readonly runSessions: ReadonlyMap<string, SessionRecord>;
  readonly live: RunTracker;
  /** A cluster: its instances, and which one runs each run. */
  readonly cluster?: {
    readonly instances: readonly ClusterInstance[];
    readonly placement: ReadonlyMap<string, RunPlacement>;
  };
  readonly now: number;
  /** A session is active when updated within this window. Default one hour. */
  readonly activeWindowMs?: number;
}

/**
 * Builds the fleet view: each agent with its bindings, model and sessions; running runs as trees of sub-agents with
 * depth, status, age, tokens, cost, channel and chat; totals. Contract: pure; live usage wins over stored usage.
 */
export function buildFleetView(input: FleetInput): FleetView {
  const window = input.activeWindowMs ?? 60 * 60 * 1000;
  const nodes = new Map<string, FleetRunNode>();
  for (const run of input.runs) {
    const placed = input.cluster?.placement.get(run.id);
    const reported = placed?.reported;
    const usage = input.live.get(run.id)?.usage() ?? run.usage;
    const session = input.runSessions.get(run.sessionKey);
    nodes.set(run.id, {
      runId: run.id,
      agentId: run.agentId,
      sessionKey: run.sessionKey,
      depth: run.depth,
      status: run.status,
      ageMs: Math.max(0, input.now - run.startedAt),
      tokens: reported?.tokens ?? usage.totalTokens,
      cost: reported?.cost ?? usage.cost.total,
      channel: session?.channel ?? "?",
      chatId: session?.chatId ?? "?",
      ...(placed === undefined ? {} : { instance: placed.instance, beatAgeMs: placed.beatAgeMs }),
      children: [],
    });
  }
  const roots: FleetRunNode[] = [];
  for (const run of input.runs) {
    const node = nodes.get(run.id)!;
    const parent = run.parentRunId === undefined ? undefined : nodes.get(run.parentRunId);
    if (parent === undefined) roots.push(node);
    else parent.children.push(node);
  }
  const agents = input.agents.map((agent): FleetAgent => {
    const sessions = input.sessions.filter((session) => session.agentId === agent.id);
    return {
      id: agent.id,
      model: agent.model,
      bindings: input.bindings.filter((b) => b.agentId === agent.id).map((b) => describeMatch(b.match)),
      sessions: sessions.length,
      activeSessions: sessions.filter((s) => input.now - s.updatedAt <= window).length,
      runningRuns: input.runs.filter((run) => run.agentId === agent.id && run.depth === 0).length,
    };
  });
  let tokens = 0;
  let cost = 0;
  for (const node of nodes.values()) {
    tokens += node.tokens;
    cost += node.cost;
  }
  return {
    agents,
    runs: input.cluster === undefined ? roots : roots.map((root) => placedTree(root, undefined)),
    ...(input.cluster === undefined ? {} : { instances: input.cluster.instances }),
    totals: {
      sessions: input.sessions.length,
      activeSessions: agents.reduce((sum, agent) => sum + agent.activeSessions, 0),
      runningRuns: nodes.size,
      tokens,
      cost,
    },
  };
}

/**
 * A cluster's run tree with every run placed: a run no instance reported yet (started since its last heartbeat) runs
 * where its parent runs (sub-agents run in their parent's process), else it is marked as not reported yet.
 */
function placedTree(node: FleetRunNode, parent: FleetRunNode | undefined): FleetRunNode {
  const placed: FleetRunNode =
    node.instance !== undefined
      ? node
      : {
          ...node,
          instance: parent?.instance ?? "(not reported yet)",
          ...(parent?.beatAgeMs === undefined ? {} : { beatAgeMs: parent.beatAgeMs }),
        };
  return { ...placed, children: node.children.map((child) => placedTree(child, placed)) };
}
