import { describeMatch } from "../config/binding-specificity.js";
import type { AgentConfig, Binding } from "../config/gateway-config-schema.js";
import { type AutonomousGoalEntry, autonomousGoalsOf } from "../goals/goal-fleet.js";
import type { RunRecord, RunStatus, SessionRecord } from "../store/store-types.js";
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
  /** Autonomous goals stored with the sessions (active, paused, completed, orphaned). */
  readonly goals?: readonly AutonomousGoalEntry[];
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
    const usage = input.live.get(run.id)?.usage() ?? run.usage;
    const session = input.runSessions.get(run.sessionKey);
    nodes.set(run.id, {
      runId: run.id,
      agentId: run.agentId,
      sessionKey: run.sessionKey,
      depth: run.depth,
      status: run.status,
      ageMs: Math.max(0, input.now - run.startedAt),
      tokens: usage.totalTokens,
      cost: usage.cost.total,
      channel: session?.channel ?? "?",
      chatId: session?.chatId ?? "?",
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
    runs: roots,
    goals: autonomousGoalsOf(input.sessions),
    totals: {
      sessions: input.sessions.length,
      activeSessions: agents.reduce((sum, agent) => sum + agent.activeSessions, 0),
      runningRuns: nodes.size,
      tokens,
      cost,
    },
  };
}
