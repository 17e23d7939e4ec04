import { renderFleet } from "../fleet/render-fleet.js";
import { formatAge } from "../formatting/format-age-and-cost.js";
import type { CommandDefinition } from "./command-types.js";
import { extensionContextOf, renderAgentsSections } from "./extension-commands.js";

/** /agents [info <agentId> | sessions <agentId> | kill <runId> | <section> …]: the fleet, for admins. */
export const agentsCommand: CommandDefinition = {
  name: "agents",
  usage: "/agents [info <agentId> | sessions <agentId> | kill <runId>]",
  description: "the fleet: agents, sessions and running runs (admins)",
  adminOnly: true,
  ephemeral: true,
  async run(context) {
    const { host, args } = context;
    const [action, id] = args;
    if (action === undefined) {
      const fleet = await host.fleet();
      // The extensions' sections under the fleet (e.g. autonomous goals and schedules), each after a blank line.
      const sections = await renderAgentsSections(host.agentsSections ?? [], host.now());
      return { text: [renderFleet(fleet), ...sections.lines].join("\n"), buttons: sections.buttons };
    }
    const section = host.agentsSections?.find((candidate) => candidate.name === action);
    if (section?.act !== undefined) return section.act(args.slice(1), extensionContextOf(context));
    if (action === "info" && id !== undefined) return (await host.agentInfo(id)) ?? `No agent "${id}".`;
    if (action === "sessions" && id !== undefined) {
      const sessions = await host.agentSessions(id);
      if (sessions === undefined) return `No agent "${id}".`;
      if (sessions.length === 0) return `${id} has no sessions.`;
      const now = Date.now();
      return [
        `**Sessions of ${id}** (${sessions.length}, most recent first)`,
        ...sessions
          .slice(0, 30)
          .map((s) => `- ${s.title ?? "(untitled)"} · \`${s.key}\` · ${formatAge(now - s.updatedAt)} ago`),
      ].join("\n");
    }
    if (action === "kill" && id !== undefined) {
      const { killed, instance, unanswered } = await host.killRun(id);
      if (unanswered === true) {
        return (
          `No instance answered for run "${id}": the one running it is gone or cut off. ` +
          "The run is marked interrupted when its sessions are taken over."
        );
      }
      if (killed.length === 0) return `No running run "${id}".`;
      const below = killed.length - 1;
      const where = instance === undefined ? "" : ` on ${instance}`;
      return `Stopped ${id}${where}${below > 0 ? ` and ${below} sub-agent run(s) under it` : ""}; its chat was told.`;
    }
    return `Usage: ${agentsCommand.usage}`;
  },
};
