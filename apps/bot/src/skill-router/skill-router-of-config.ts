import type { GatewayExtension } from "@chorus/gateway";
import type { SkillArmStore } from "@chorus/memory";
import type { Skill } from "@chorus/tools";
import type { BotConfig } from "../config/bot-config-schema.js";
import { skillRouterExtension } from "./skill-router-extension.js";

/**
 * The skill router for the agents with `skillRouter: true`, or nothing when none has it (the default). Its arms go to
 * the long-term memory store when `memory:` is on, else to the store `openArms` opens (the bot: a memory store in the
 * session store's database, for the arms alone), closed with the gateway.
 * Contract: an empty list unless some agent turned the router on.
 */
export function skillRouterOfConfig(
  config: Pick<BotConfig, "agents">,
  skillsByAgent: Readonly<Record<string, readonly Skill[]>>,
  memoryStore: SkillArmStore | undefined,
  openArms: () => Promise<SkillArmStore & { close(): Promise<void> }>,
): GatewayExtension[] {
  const agents = config.agents.filter((agent) => agent.skillRouter === true).map((agent) => agent.id);
  if (agents.length === 0) return [];
  return [skillRouterExtension({ agents, skillsByAgent, arms: memoryStore ?? openArms })];
}
