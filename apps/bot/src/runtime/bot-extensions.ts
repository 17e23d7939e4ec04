import { type GatewayExtension, planModeExtension, skillsExtension } from "@chorus/gateway";
import type { Skill } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";

/**
 * The gateway extensions the bot composes from its configuration: each agent's skills, and plan mode for the agents
 * with `planMode: true`. Contract: the same list for every start of one configuration; order is hook order.
 */
export function botExtensions(
  config: BotConfig,
  skillsByAgent: Readonly<Record<string, readonly Skill[]>>,
): GatewayExtension[] {
  const planning = config.agents.filter((agent) => agent.planMode === true).map((agent) => agent.id);
  return [skillsExtension(skillsByAgent), planModeExtension({ agents: planning })];
}
