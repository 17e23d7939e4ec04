import { renderInstances } from "../fleet/render-fleet.js";
import { formatCost } from "../formatting/format-age-and-cost.js";
import { formatContextFill, formatLastCompaction } from "../formatting/format-context.js";
import type { CommandDefinition } from "./command-types.js";

/**
 * /status: agent, model, the context (estimated tokens of the transcript / the model's window, % full), cost, queue
 * and the last compaction (when, what it saved); in a cluster, its instances; then the extensions' lines.
 */
export const statusCommand: CommandDefinition = {
  name: "status",
  usage: "/status",
  description: "show agent, model, context, cost and queue",
  adminOnly: false,
  async run({ host, sessionKey }) {
    const s = await host.status(sessionKey);
    return [
      `**Agent** ${s.agentId} · **model** ${s.model}`,
      `**Context** ${formatContextFill(s.contextTokens, s.contextMaxTokens)} · **cost** ${formatCost(s.cost)}`,
      `**Queue** ${s.queueMode} · ${s.queued} waiting · ${s.running ? "working" : "idle"}`,
      `**Last compaction** ${formatLastCompaction(s.lastCompaction, host.now())}`,
      ...(s.instances === undefined ? [] : renderInstances(s.instances, s.owner)),
      ...(s.extensionLines ?? []),
    ].join("\n");
  },
};
