import { renderInstances } from "../fleet/render-fleet.js";
import { formatCost } from "../formatting/format-age-and-cost.js";
import type { CommandDefinition } from "./command-types.js";

/** /status: agent, model, context tokens, cost, queue and the last compaction; in a cluster, its instances. */
export const statusCommand: CommandDefinition = {
  name: "status",
  usage: "/status",
  description: "show agent, model, context, cost and queue",
  adminOnly: false,
  async run({ host, sessionKey }) {
    const s = await host.status(sessionKey);
    const compaction =
      s.lastCompaction === undefined ? "none yet" : `${s.lastCompaction.before} → ${s.lastCompaction.after} tokens`;
    return [
      `**Agent** ${s.agentId} · **model** ${s.model}`,
      `**Context** ~${s.contextTokens} tokens · **cost** ${formatCost(s.cost)}`,
      `**Queue** ${s.queueMode} · ${s.queued} waiting · ${s.running ? "working" : "idle"}`,
      `**Last compaction** ${compaction}`,
      ...(s.activeSubgoal === undefined ? [] : [`**Subgoal** ${s.activeSubgoal ?? "none yet"}`]),
      ...(s.instances === undefined ? [] : renderInstances(s.instances, s.owner)),
    ].join("\n");
  },
};
