import type { ClusterInstance } from "@chorus/store";
import { formatAge, formatCost } from "../formatting/format-age-and-cost.js";
import type { FleetRunNode, FleetView } from "./fleet-view.js";

/** Runs listed at most; the rest are counted. Keeps /agents readable and within a few messages. */
const MAX_RUN_LINES = 40;

/**
 * The fleet as Markdown for a chat: totals (the running runs' use so far, and today's spend when known), agents, then the run tree (sub-agents nested under their parent with
 * tree glyphs, see `treePrefix`). Contract: at most MAX_RUN_LINES run lines, the rest counted in "… and N more";
 * the reply layer splits the text to the channel's limits.
 */
export function renderFleet(view: FleetView): string {
  const { totals } = view;
  const lines = [
    `**Fleet**: ${view.agents.length} agent(s) · ${totals.activeSessions} active of ${totals.sessions} session(s) · ` +
      `${totals.runningRuns} running run(s) (${totals.tokens} tokens · ${formatCost(totals.cost)} so far)` +
      (view.today === undefined ? "" : ` · today: ${view.today.tokens} tokens · ${formatCost(view.today.cost)}`),
    ...(view.instances === undefined ? [] : ["", ...renderInstances(view.instances)]),
    "",
    "**Agents**",
  ];
  for (const agent of view.agents) {
    const bindings = agent.bindings.length === 0 ? "default" : agent.bindings.join(" ");
    lines.push(
      `- ${agent.id}: model ${agent.model} · bindings ${bindings} · sessions ${agent.activeSessions} active / ${agent.sessions} · runs ${agent.runningRuns}`,
    );
  }
  lines.push("", "**Running**");
  if (view.runs.length === 0) lines.push("- nothing is running");
  let shown = 0;
  let hidden = 0;
  const visit = (node: FleetRunNode, level: number): void => {
    if (shown >= MAX_RUN_LINES) {
      hidden++;
    } else {
      shown++;
      lines.push(`${treePrefix(level)}${describeRun(node)}`);
    }
    for (const child of node.children) visit(child, level + 1);
  };
  for (const root of view.runs) visit(root, 0);
  if (hidden > 0) lines.push(`… and ${hidden} more`);
  return lines.join("\n");
}

/**
 * The tree glyphs in front of a run at `level` below its root: `▪ ` for a root, `└─ ` for a child, `│ └─ ` for a
 * grandchild. Every line starts with a glyph, never with whitespace or a list marker, so the nesting survives each
 * markup dialect (Markdown renderers drop leading spaces and re-indent nested lists their own way).
 */
export function treePrefix(level: number): string {
  return level === 0 ? "▪ " : `${"│ ".repeat(level - 1)}└─ `;
}

/**
 * One run as a line: id, agent, depth, status, age, tokens, cost, channel and chat; in a cluster also the instance
 * running it and that instance's heartbeat age.
 */
export function describeRun(node: FleetRunNode): string {
  const where =
    node.instance === undefined
      ? ""
      : ` · on ${node.instance}${node.beatAgeMs === undefined ? "" : ` (beat ${formatBeatAge(node.beatAgeMs)} ago)`}`;
  return (
    `\`${node.runId}\` ${node.agentId} · depth ${node.depth} · ${node.status} · ${formatAge(node.ageMs)} · ` +
    `${node.tokens} tokens · ${formatCost(node.cost)} · ${node.channel} ${node.chatId}${where}`
  );
}

/**
 * A cluster's instances, one line each: id, shards held, heartbeat age, live runs; the one asking is marked, and the
 * one owning the chat when `owner` names it.
 */
export function renderInstances(instances: readonly ClusterInstance[], owner?: string): string[] {
  const marks = (instance: ClusterInstance): string => {
    const said = [instance.self ? "this one" : undefined, instance.id === owner ? "owns this chat" : undefined];
    const shown = said.filter((mark) => mark !== undefined);
    return shown.length === 0 ? "" : ` (${shown.join(", ")})`;
  };
  return [
    `**Instances** (${instances.length})`,
    ...instances.map(
      (instance) =>
        `- ${instance.id}${marks(instance)}: ${instance.shards} shard(s) · ` +
        `beat ${formatBeatAge(instance.beatAgeMs)} ago · ${instance.runs.length} live run(s)`,
    ),
  ];
}

/** A heartbeat age: tenths of a second below ten seconds ("0.4 s"), else as `formatAge`. */
export function formatBeatAge(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : formatAge(ms);
}
